package java.util;

/**
 * A time zone. Only fixed offsets exist here, without daylight saving:
 * "UTC", "GMT" and custom IDs "GMT+h", "GMT+hh:mm", "GMT-hhmm"; any other
 * ID gives GMT, as the platform does for IDs it does not know. The
 * default zone is UTC (the VM does not read the host's zone, so programs
 * print the same on every machine).
 */
public abstract class TimeZone implements java.io.Serializable, Cloneable {
    public static final int SHORT = 0;
    public static final int LONG = 1;

    private static TimeZone defaultZone;

    private String id;

    public TimeZone() {
    }

    public String getID() {
        return id;
    }

    public void setID(String id) {
        if (id == null) {
            throw new NullPointerException();
        }
        this.id = id;
    }

    public abstract int getRawOffset();

    public abstract void setRawOffset(int offsetMillis);

    public abstract boolean useDaylightTime();

    public abstract int getOffset(int era, int year, int month, int day, int dayOfWeek, int milliseconds);

    /** Returns the offset from UTC at the given instant. */
    public int getOffset(long date) {
        return getRawOffset();
    }

    public int getDSTSavings() {
        return useDaylightTime() ? 3600000 : 0;
    }

    public boolean observesDaylightTime() {
        return useDaylightTime();
    }

    public boolean hasSameRules(TimeZone other) {
        return other != null && getRawOffset() == other.getRawOffset() && useDaylightTime() == other.useDaylightTime();
    }

    public final String getDisplayName() {
        return getDisplayName(false, LONG);
    }

    /** Returns "GMT+hh:mm" (or the ID for UTC and GMT). */
    public String getDisplayName(boolean daylight, int style) {
        if (style != SHORT && style != LONG) {
            throw new IllegalArgumentException("Illegal style: " + style);
        }
        int off = getRawOffset() + (daylight ? getDSTSavings() : 0);
        if (off == 0 && ("UTC".equals(id) || "GMT".equals(id))) {
            return style == LONG && "UTC".equals(id) ? "Coordinated Universal Time" : id;
        }
        return customID(off);
    }

    public Object clone() {
        try {
            return super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private static String customID(int offsetMillis) {
        char sign = '+';
        if (offsetMillis < 0) {
            sign = '-';
            offsetMillis = -offsetMillis;
        }
        int minutes = offsetMillis / 60000;
        int h = minutes / 60;
        int m = minutes % 60;
        return "GMT" + sign + (h < 10 ? "0" : "") + h + ":" + (m < 10 ? "0" : "") + m;
    }

    // Parses the custom ID forms after "GMT" (an offset in millis), or
    // returns null when id is not one.
    private static Integer parseCustom(String id) {
        if (!id.startsWith("GMT") || id.length() < 5) {
            return null;
        }
        char sign = id.charAt(3);
        if (sign != '+' && sign != '-') {
            return null;
        }
        String rest = id.substring(4);
        int h;
        int m = 0;
        int colon = rest.indexOf(':');
        try {
            if (colon >= 0) {
                if (colon == 0 || colon > 2 || rest.length() - colon - 1 != 2) {
                    return null;
                }
                h = Integer.parseInt(rest.substring(0, colon));
                m = Integer.parseInt(rest.substring(colon + 1));
            } else if (rest.length() <= 2) {
                h = Integer.parseInt(rest);
            } else if (rest.length() == 4) {
                h = Integer.parseInt(rest.substring(0, 2));
                m = Integer.parseInt(rest.substring(2));
            } else {
                return null;
            }
        } catch (NumberFormatException e) {
            return null;
        }
        if (h > 23 || m > 59 || rest.charAt(0) == '+' || rest.charAt(0) == '-') {
            return null;
        }
        int off = (h * 60 + m) * 60000;
        return sign == '-' ? -off : off;
    }

    public static synchronized TimeZone getTimeZone(String id) {
        if (id == null) {
            throw new NullPointerException("id == null");
        }
        if (id.equals("UTC") || id.equals("GMT")) {
            return new Fixed(id, 0);
        }
        Integer off = parseCustom(id);
        if (off == null) {
            return new Fixed("GMT", 0);
        }
        return new Fixed(customID(off), off);
    }

    public static synchronized TimeZone getDefault() {
        if (defaultZone == null) {
            defaultZone = new Fixed("UTC", 0);
        }
        return (TimeZone) defaultZone.clone();
    }

    public static synchronized void setDefault(TimeZone zone) {
        defaultZone = zone != null ? (TimeZone) zone.clone() : null;
    }

    public static String[] getAvailableIDs() {
        return new String[] {"GMT", "UTC"};
    }

    public static String[] getAvailableIDs(int rawOffset) {
        return rawOffset == 0 ? getAvailableIDs() : new String[0];
    }

    // A zone at a fixed offset from UTC.
    private static final class Fixed extends TimeZone {
        private int offset;

        Fixed(String id, int offset) {
            setID(id);
            this.offset = offset;
        }

        public int getRawOffset() {
            return offset;
        }

        public void setRawOffset(int offsetMillis) {
            offset = offsetMillis;
        }

        public boolean useDaylightTime() {
            return false;
        }

        public int getOffset(int era, int year, int month, int day, int dayOfWeek, int milliseconds) {
            return offset;
        }

        public boolean equals(Object o) {
            return o instanceof Fixed && ((Fixed) o).offset == offset && ((Fixed) o).getID().equals(getID());
        }

        public int hashCode() {
            return getID().hashCode() ^ offset;
        }

        public String toString() {
            return getClass().getName() + "[id=" + getID() + ",offset=" + offset + ",dstSavings=0,useDaylight=false]";
        }
    }
}
