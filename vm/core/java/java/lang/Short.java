package java.lang;

/** The boxed short. */
public final class Short extends Number implements Comparable<Short> {
    private static final long serialVersionUID = 1L;

    public static final short MIN_VALUE = -32768;
    public static final short MAX_VALUE = 32767;
    public static final int SIZE = 16;
    public static final int BYTES = 16 / 8;
    @SuppressWarnings("unchecked")
    public static final Class<Short> TYPE = (Class<Short>) short[].class.getComponentType();

    private static final Short[] CACHE = new Short[256];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new Short((short) (i - 128));
        }
    }

    private final short value;

    public Short(short value) {
        this.value = value;
    }

    public Short(String s) throws NumberFormatException {
        this(parseShort(s, 10));
    }

    public static Short valueOf(short v) {
        if (v >= -128 && v <= 127) {
            return CACHE[v + 128];
        }
        return new Short(v);
    }

    public static short parseShort(String s, int radix) throws NumberFormatException {
        int i = Integer.parseInt(s, radix);
        if (i < MIN_VALUE || i > MAX_VALUE) {
            throw new NumberFormatException("Value out of range. Value:\"" + s + "\" Radix:" + radix);
        }
        return (short) i;
    }

    public static short parseShort(String s) throws NumberFormatException {
        return parseShort(s, 10);
    }

    public static Short valueOf(String s, int radix) throws NumberFormatException {
        return valueOf(parseShort(s, radix));
    }

    public static Short valueOf(String s) throws NumberFormatException {
        return valueOf(parseShort(s, 10));
    }

    public static Short decode(String s) throws NumberFormatException {
        int i = Integer.decode(s).intValue();
        if (i < MIN_VALUE || i > MAX_VALUE) {
            throw new NumberFormatException("Value " + i + " out of range from input " + s);
        }
        return valueOf((short) i);
    }

    public byte byteValue() {
        return (byte) value;
    }

    public short shortValue() {
        return (short) value;
    }

    public int intValue() {
        return value;
    }

    public long longValue() {
        return value;
    }

    public float floatValue() {
        return value;
    }

    public double doubleValue() {
        return value;
    }

    public String toString() {
        return Integer.toString(value);
    }

    public static String toString(short v) {
        return Integer.toString(v);
    }

    public int hashCode() {
        return value;
    }

    public static int hashCode(short v) {
        return v;
    }

    public boolean equals(Object obj) {
        return obj instanceof Short && ((Short) obj).value == value;
    }

    public int compareTo(Short other) {
        return value - other.value;
    }

    public static int compare(short x, short y) {
        return x - y;
    }

    public static int toUnsignedInt(short x) {
        return x & ((1 << SIZE) - 1);
    }

    public static long toUnsignedLong(short x) {
        return x & ((1L << SIZE) - 1);
    }

    public static short reverseBytes(short i) {
        return (short) (((i & 0xff00) >> 8) | (i << 8));
    }
}
