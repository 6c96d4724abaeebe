package java.util.concurrent;

/** Units of time, from nanoseconds to days, with saturating conversions. */
public enum TimeUnit {
    NANOSECONDS(1L),
    MICROSECONDS(1000L),
    MILLISECONDS(1000L * 1000),
    SECONDS(1000L * 1000 * 1000),
    MINUTES(60L * 1000 * 1000 * 1000),
    HOURS(60L * 60 * 1000 * 1000 * 1000),
    DAYS(24L * 60 * 60 * 1000 * 1000 * 1000);

    private final long nanos; // nanoseconds in one unit

    TimeUnit(long nanos) {
        this.nanos = nanos;
    }

    // d units of from in units of size to, saturating at Long.MIN/MAX_VALUE.
    private static long scale(long d, long from, long to) {
        if (from == to) {
            return d;
        }
        if (from < to) {
            return d / (to / from);
        }
        long m = from / to;
        if (d > Long.MAX_VALUE / m) {
            return Long.MAX_VALUE;
        }
        if (d < -(Long.MAX_VALUE / m)) {
            return Long.MIN_VALUE;
        }
        return d * m;
    }

    /** Converts sourceDuration in sourceUnit to this unit. */
    public long convert(long sourceDuration, TimeUnit sourceUnit) {
        return scale(sourceDuration, sourceUnit.nanos, nanos);
    }

    public long toNanos(long d) {
        return scale(d, nanos, NANOSECONDS.nanos);
    }

    public long toMicros(long d) {
        return scale(d, nanos, MICROSECONDS.nanos);
    }

    public long toMillis(long d) {
        return scale(d, nanos, MILLISECONDS.nanos);
    }

    public long toSeconds(long d) {
        return scale(d, nanos, SECONDS.nanos);
    }

    public long toMinutes(long d) {
        return scale(d, nanos, MINUTES.nanos);
    }

    public long toHours(long d) {
        return scale(d, nanos, HOURS.nanos);
    }

    public long toDays(long d) {
        return scale(d, nanos, DAYS.nanos);
    }

    public void sleep(long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ns = toNanos(timeout);
            Thread.sleep(ns / 1000000, (int) (ns % 1000000));
        }
    }

    public void timedJoin(Thread thread, long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ns = toNanos(timeout);
            thread.join(ns / 1000000, (int) (ns % 1000000));
        }
    }

    public void timedWait(Object obj, long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ns = toNanos(timeout);
            obj.wait(ns / 1000000, (int) (ns % 1000000));
        }
    }
}
