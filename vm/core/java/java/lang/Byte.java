package java.lang;

/** The boxed byte. */
public final class Byte extends Number implements Comparable<Byte> {
    private static final long serialVersionUID = 1L;

    public static final byte MIN_VALUE = -128;
    public static final byte MAX_VALUE = 127;
    public static final int SIZE = 8;
    public static final int BYTES = 8 / 8;
    @SuppressWarnings("unchecked")
    public static final Class<Byte> TYPE = (Class<Byte>) byte[].class.getComponentType();

    private static final Byte[] CACHE = new Byte[256];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new Byte((byte) (i - 128));
        }
    }

    private final byte value;

    public Byte(byte value) {
        this.value = value;
    }

    public Byte(String s) throws NumberFormatException {
        this(parseByte(s, 10));
    }

    public static Byte valueOf(byte v) {
        if (v >= -128 && v <= 127) {
            return CACHE[v + 128];
        }
        return new Byte(v);
    }

    public static byte parseByte(String s, int radix) throws NumberFormatException {
        int i = Integer.parseInt(s, radix);
        if (i < MIN_VALUE || i > MAX_VALUE) {
            throw new NumberFormatException("Value out of range. Value:\"" + s + "\" Radix:" + radix);
        }
        return (byte) i;
    }

    public static byte parseByte(String s) throws NumberFormatException {
        return parseByte(s, 10);
    }

    public static Byte valueOf(String s, int radix) throws NumberFormatException {
        return valueOf(parseByte(s, radix));
    }

    public static Byte valueOf(String s) throws NumberFormatException {
        return valueOf(parseByte(s, 10));
    }

    public static Byte decode(String s) throws NumberFormatException {
        int i = Integer.decode(s).intValue();
        if (i < MIN_VALUE || i > MAX_VALUE) {
            throw new NumberFormatException("Value " + i + " out of range from input " + s);
        }
        return valueOf((byte) i);
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

    public static String toString(byte v) {
        return Integer.toString(v);
    }

    public int hashCode() {
        return value;
    }

    public static int hashCode(byte v) {
        return v;
    }

    public boolean equals(Object obj) {
        return obj instanceof Byte && ((Byte) obj).value == value;
    }

    public int compareTo(Byte other) {
        return value - other.value;
    }

    public static int compare(byte x, byte y) {
        return x - y;
    }

    public static int toUnsignedInt(byte x) {
        return x & ((1 << SIZE) - 1);
    }

    public static long toUnsignedLong(byte x) {
        return x & ((1L << SIZE) - 1);
    }
}
