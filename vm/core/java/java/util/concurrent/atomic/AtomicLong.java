package java.util.concurrent.atomic;

/**
 * A long updated atomically. Every method locks the object: the VM has no
 * compare-and-swap primitive for Java code, and monitors are enough here.
 */
public class AtomicLong extends Number implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private volatile long value;

    public AtomicLong(long initialValue) {
        value = initialValue;
    }

    public AtomicLong() {
    }

    public final long get() {
        return value;
    }

    public final synchronized void set(long newValue) {
        value = newValue;
    }

    public final void lazySet(long newValue) {
        set(newValue);
    }

    public final synchronized long getAndSet(long newValue) {
        long old = value;
        value = newValue;
        return old;
    }

    public final synchronized boolean compareAndSet(long expect, long update) {
        if (value != expect) {
            return false;
        }
        value = update;
        return true;
    }

    public final boolean weakCompareAndSet(long expect, long update) {
        return compareAndSet(expect, update);
    }

    public final synchronized long getAndAdd(long delta) {
        long old = value;
        value = old + delta;
        return old;
    }

    public final synchronized long addAndGet(long delta) {
        value += delta;
        return value;
    }

    public final long getAndIncrement() {
        return getAndAdd(1);
    }

    public final long getAndDecrement() {
        return getAndAdd(-1);
    }

    public final long incrementAndGet() {
        return addAndGet(1);
    }

    public final long decrementAndGet() {
        return addAndGet(-1);
    }

    public String toString() {
        return Long.toString(get());
    }

    public int intValue() {
        return (int) get();
    }

    public long longValue() {
        return get();
    }

    public float floatValue() {
        return (float) get();
    }

    public double doubleValue() {
        return (double) get();
    }
}
