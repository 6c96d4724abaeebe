package java.lang;

/** The boxed int, and int formatting, parsing and bit twiddling. */
public final class Integer extends Number implements Comparable<Integer> {
    private static final long serialVersionUID = 1L;

    public static final int MIN_VALUE = 0x80000000;
    public static final int MAX_VALUE = 0x7fffffff;
    public static final int SIZE = 32;
    public static final int BYTES = 4;
    @SuppressWarnings("unchecked")
    public static final Class<Integer> TYPE = (Class<Integer>) int[].class.getComponentType();

    static final char[] DIGITS = {
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
        'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z'
    };

    private static final Integer[] CACHE = new Integer[256];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new Integer(i - 128);
        }
    }

    private final int value;

    public Integer(int value) {
        this.value = value;
    }

    public Integer(String s) throws NumberFormatException {
        this.value = parseInt(s, 10);
    }

    public static Integer valueOf(int i) {
        if (i >= -128 && i <= 127) {
            return CACHE[i + 128];
        }
        return new Integer(i);
    }

    public static Integer valueOf(String s) throws NumberFormatException {
        return valueOf(parseInt(s, 10));
    }

    public static Integer valueOf(String s, int radix) throws NumberFormatException {
        return valueOf(parseInt(s, radix));
    }

    public static String toString(int i) {
        return toString(i, 10);
    }

    public static String toString(int i, int radix) {
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) {
            radix = 10;
        }
        char[] buf = new char[33];
        int pos = buf.length;
        // Work with the negative value: -MIN_VALUE does not fit in an int.
        int n = i < 0 ? i : -i;
        do {
            buf[--pos] = DIGITS[-(n % radix)];
            n /= radix;
        } while (n != 0);
        if (i < 0) {
            buf[--pos] = '-';
        }
        return new String(buf, pos, buf.length - pos);
    }

    // Formats i as an unsigned number in base 1 << shift.
    static String toUnsignedString(long i, int shift, int bits) {
        char[] buf = new char[64];
        int pos = buf.length;
        long mask = (1L << shift) - 1;
        long v = bits == 32 ? i & 0xffffffffL : i;
        do {
            buf[--pos] = DIGITS[(int) (v & mask)];
            v >>>= shift;
        } while (v != 0);
        return new String(buf, pos, buf.length - pos);
    }

    public static String toHexString(int i) {
        return toUnsignedString(i, 4, 32);
    }

    public static String toOctalString(int i) {
        return toUnsignedString(i, 3, 32);
    }

    public static String toBinaryString(int i) {
        return toUnsignedString(i, 1, 32);
    }

    public static String toUnsignedString(int i) {
        return Long.toString(toUnsignedLong(i));
    }

    public static String toUnsignedString(int i, int radix) {
        return Long.toString(toUnsignedLong(i), radix);
    }

    static NumberFormatException badInput(String s) {
        return new NumberFormatException("For input string: \"" + s + "\"");
    }

    static void checkRadix(String s, int radix) {
        if (s == null) {
            throw new NumberFormatException("null");
        }
        if (radix < Character.MIN_RADIX) {
            throw new NumberFormatException("radix " + radix + " less than Character.MIN_RADIX");
        }
        if (radix > Character.MAX_RADIX) {
            throw new NumberFormatException("radix " + radix + " greater than Character.MAX_RADIX");
        }
    }

    public static int parseInt(String s, int radix) throws NumberFormatException {
        checkRadix(s, radix);
        int n = s.length();
        if (n == 0) {
            throw badInput(s);
        }
        int i = 0;
        boolean negative = false;
        char c = s.charAt(0);
        if (c == '-' || c == '+') {
            negative = c == '-';
            i = 1;
            if (n == 1) {
                throw badInput(s);
            }
        }
        // An int's magnitude fits in a long with room for one more digit.
        long limit = negative ? 0x80000000L : 0x7fffffffL;
        long v = 0;
        for (; i < n; i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0) {
                throw badInput(s);
            }
            v = v * radix + d;
            if (v > limit) {
                throw badInput(s);
            }
        }
        return (int) (negative ? -v : v);
    }

    public static int parseInt(String s) throws NumberFormatException {
        return parseInt(s, 10);
    }

    public static int parseUnsignedInt(String s, int radix) throws NumberFormatException {
        checkRadix(s, radix);
        if (s.length() > 0 && s.charAt(0) == '-') {
            throw new NumberFormatException("Illegal leading minus sign on unsigned string " + s + ".");
        }
        long v = Long.parseLong(s, radix);
        if ((v >>> 32) != 0) {
            throw new NumberFormatException("String value " + s + " exceeds range of unsigned int.");
        }
        return (int) v;
    }

    public static int parseUnsignedInt(String s) throws NumberFormatException {
        return parseUnsignedInt(s, 10);
    }

    public static Integer decode(String nm) throws NumberFormatException {
        int radix = 10;
        int i = 0;
        boolean negative = false;
        if (nm.isEmpty()) {
            throw new NumberFormatException("Zero length string");
        }
        char c = nm.charAt(0);
        if (c == '-' || c == '+') {
            negative = c == '-';
            i++;
        }
        if (nm.startsWith("0x", i) || nm.startsWith("0X", i)) {
            radix = 16;
            i += 2;
        } else if (nm.startsWith("#", i)) {
            radix = 16;
            i++;
        } else if (nm.startsWith("0", i) && nm.length() > 1 + i) {
            radix = 8;
            i++;
        }
        if (nm.startsWith("-", i) || nm.startsWith("+", i)) {
            throw new NumberFormatException("Sign character in wrong position");
        }
        String digits = nm.substring(i);
        return valueOf(parseInt(negative ? "-" + digits : digits, radix));
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
        return toString(value);
    }

    public int hashCode() {
        return value;
    }

    public static int hashCode(int value) {
        return value;
    }

    public boolean equals(Object obj) {
        return obj instanceof Integer && ((Integer) obj).value == value;
    }

    public int compareTo(Integer other) {
        return compare(value, other.value);
    }

    public static int compare(int x, int y) {
        return x < y ? -1 : (x == y ? 0 : 1);
    }

    public static int compareUnsigned(int x, int y) {
        return compare(x + MIN_VALUE, y + MIN_VALUE);
    }

    public static long toUnsignedLong(int x) {
        return x & 0xffffffffL;
    }

    public static int divideUnsigned(int dividend, int divisor) {
        return (int) (toUnsignedLong(dividend) / toUnsignedLong(divisor));
    }

    public static int remainderUnsigned(int dividend, int divisor) {
        return (int) (toUnsignedLong(dividend) % toUnsignedLong(divisor));
    }

    public static int highestOneBit(int i) {
        return i == 0 ? 0 : MIN_VALUE >>> numberOfLeadingZeros(i);
    }

    public static int lowestOneBit(int i) {
        return i & -i;
    }

    public static int numberOfLeadingZeros(int i) {
        if (i == 0) {
            return 32;
        }
        int n = 0;
        for (int step = 16; step > 0; step >>= 1) {
            if ((i >>> (32 - step)) == 0) {
                n += step;
                i <<= step;
            }
        }
        return n;
    }

    public static int numberOfTrailingZeros(int i) {
        if (i == 0) {
            return 32;
        }
        int n = 0;
        for (int step = 16; step > 0; step >>= 1) {
            if ((i << (32 - step)) == 0) {
                n += step;
                i >>>= step;
            }
        }
        return n;
    }

    public static int bitCount(int i) {
        i = i - ((i >>> 1) & 0x55555555);
        i = (i & 0x33333333) + ((i >>> 2) & 0x33333333);
        i = (i + (i >>> 4)) & 0x0f0f0f0f;
        return (i * 0x01010101) >>> 24;
    }

    public static int rotateLeft(int i, int distance) {
        return (i << distance) | (i >>> -distance);
    }

    public static int rotateRight(int i, int distance) {
        return (i >>> distance) | (i << -distance);
    }

    public static int reverse(int i) {
        i = ((i & 0x55555555) << 1) | ((i >>> 1) & 0x55555555);
        i = ((i & 0x33333333) << 2) | ((i >>> 2) & 0x33333333);
        i = ((i & 0x0f0f0f0f) << 4) | ((i >>> 4) & 0x0f0f0f0f);
        return reverseBytes(i);
    }

    public static int reverseBytes(int i) {
        return (i << 24) | ((i & 0xff00) << 8) | ((i >>> 8) & 0xff00) | (i >>> 24);
    }

    public static int signum(int i) {
        return (i >> 31) | (-i >>> 31);
    }

    public static int sum(int a, int b) {
        return a + b;
    }

    public static int max(int a, int b) {
        return Math.max(a, b);
    }

    public static int min(int a, int b) {
        return Math.min(a, b);
    }
}
