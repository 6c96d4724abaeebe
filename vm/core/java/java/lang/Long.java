package java.lang;

/** The boxed long, and long formatting, parsing and bit twiddling. */
public final class Long extends Number implements Comparable<Long> {
    private static final long serialVersionUID = 1L;

    public static final long MIN_VALUE = 0x8000000000000000L;
    public static final long MAX_VALUE = 0x7fffffffffffffffL;
    public static final int SIZE = 64;
    public static final int BYTES = 8;
    @SuppressWarnings("unchecked")
    public static final Class<Long> TYPE = (Class<Long>) long[].class.getComponentType();

    private static final Long[] CACHE = new Long[256];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new Long(i - 128);
        }
    }

    private final long value;

    public Long(long value) {
        this.value = value;
    }

    public Long(String s) throws NumberFormatException {
        this.value = parseLong(s, 10);
    }

    public static Long valueOf(long l) {
        if (l >= -128 && l <= 127) {
            return CACHE[(int) l + 128];
        }
        return new Long(l);
    }

    public static Long valueOf(String s) throws NumberFormatException {
        return valueOf(parseLong(s, 10));
    }

    public static Long valueOf(String s, int radix) throws NumberFormatException {
        return valueOf(parseLong(s, radix));
    }

    public static String toString(long i) {
        return toString(i, 10);
    }

    public static String toString(long i, int radix) {
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) {
            radix = 10;
        }
        char[] buf = new char[65];
        int pos = buf.length;
        // Work with the negative value: -MIN_VALUE does not fit in a long.
        long n = i < 0 ? i : -i;
        do {
            buf[--pos] = Integer.DIGITS[(int) -(n % radix)];
            n /= radix;
        } while (n != 0);
        if (i < 0) {
            buf[--pos] = '-';
        }
        return new String(buf, pos, buf.length - pos);
    }

    public static String toHexString(long i) {
        return Integer.toUnsignedString(i, 4, 64);
    }

    public static String toOctalString(long i) {
        return Integer.toUnsignedString(i, 3, 64);
    }

    public static String toBinaryString(long i) {
        return Integer.toUnsignedString(i, 1, 64);
    }

    public static String toUnsignedString(long i) {
        return toUnsignedString(i, 10);
    }

    public static String toUnsignedString(long i, int radix) {
        if (i >= 0) {
            return toString(i, radix);
        }
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) {
            radix = 10;
        }
        // Split off the last digit so the rest is a positive long.
        long quot = divideUnsigned(i, radix);
        long rem = i - quot * radix;
        return toString(quot, radix) + Integer.DIGITS[(int) rem];
    }

    public static long parseLong(String s, int radix) throws NumberFormatException {
        Integer.checkRadix(s, radix);
        int n = s.length();
        if (n == 0) {
            throw Integer.badInput(s);
        }
        int i = 0;
        boolean negative = false;
        char c = s.charAt(0);
        if (c == '-' || c == '+') {
            negative = c == '-';
            i = 1;
            if (n == 1) {
                throw Integer.badInput(s);
            }
        }
        // Accumulate negatively: the negative range is the larger one.
        long limit = negative ? MIN_VALUE : -MAX_VALUE;
        long lastSafe = limit / radix;
        long v = 0;
        for (; i < n; i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0 || v < lastSafe) {
                throw Integer.badInput(s);
            }
            v *= radix;
            if (v < limit + d) {
                throw Integer.badInput(s);
            }
            v -= d;
        }
        return negative ? v : -v;
    }

    public static long parseLong(String s) throws NumberFormatException {
        return parseLong(s, 10);
    }

    public static long parseUnsignedLong(String s, int radix) throws NumberFormatException {
        Integer.checkRadix(s, radix);
        int n = s.length();
        if (n == 0) {
            throw Integer.badInput(s);
        }
        if (s.charAt(0) == '-') {
            throw new NumberFormatException("Illegal leading minus sign on unsigned string " + s + ".");
        }
        int i = s.charAt(0) == '+' ? 1 : 0;
        if (i == n) {
            throw Integer.badInput(s);
        }
        long v = 0;
        for (; i < n; i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0) {
                throw Integer.badInput(s);
            }
            // v * radix + d must stay below 2^64.
            long hi = multiplyHighUnsigned(v, radix);
            long lo = v * radix;
            long sum = lo + d;
            if (hi != 0 || compareUnsigned(sum, lo) < 0) {
                throw new NumberFormatException("String value " + s + " exceeds range of unsigned long.");
            }
            v = sum;
        }
        return v;
    }

    private static long multiplyHighUnsigned(long a, long b) {
        long a0 = a & 0xffffffffL;
        long a1 = a >>> 32;
        long b0 = b & 0xffffffffL;
        long b1 = b >>> 32;
        long t = a1 * b0 + ((a0 * b0) >>> 32);
        long w1 = (t & 0xffffffffL) + a0 * b1;
        return a1 * b1 + (t >>> 32) + (w1 >>> 32);
    }

    public static long parseUnsignedLong(String s) throws NumberFormatException {
        return parseUnsignedLong(s, 10);
    }

    public static Long decode(String nm) throws NumberFormatException {
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
        return valueOf(parseLong(negative ? "-" + digits : digits, radix));
    }

    public byte byteValue() {
        return (byte) value;
    }

    public short shortValue() {
        return (short) value;
    }

    public int intValue() {
        return (int) value;
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
        return hashCode(value);
    }

    public static int hashCode(long value) {
        return (int) (value ^ (value >>> 32));
    }

    public boolean equals(Object obj) {
        return obj instanceof Long && ((Long) obj).value == value;
    }

    public int compareTo(Long other) {
        return compare(value, other.value);
    }

    public static int compare(long x, long y) {
        return x < y ? -1 : (x == y ? 0 : 1);
    }

    public static int compareUnsigned(long x, long y) {
        return compare(x + MIN_VALUE, y + MIN_VALUE);
    }

    public static long divideUnsigned(long dividend, long divisor) {
        if (divisor < 0) {
            return compareUnsigned(dividend, divisor) < 0 ? 0 : 1;
        }
        if (dividend >= 0) {
            return dividend / divisor;
        }
        // Halve the dividend so it is positive, divide, then fix up.
        long q = ((dividend >>> 1) / divisor) << 1;
        long r = dividend - q * divisor;
        return q + (compareUnsigned(r, divisor) >= 0 ? 1 : 0);
    }

    public static long remainderUnsigned(long dividend, long divisor) {
        return dividend - divideUnsigned(dividend, divisor) * divisor;
    }

    public static long highestOneBit(long i) {
        return i == 0 ? 0 : MIN_VALUE >>> numberOfLeadingZeros(i);
    }

    public static long lowestOneBit(long i) {
        return i & -i;
    }

    public static int numberOfLeadingZeros(long i) {
        int hi = (int) (i >>> 32);
        return hi != 0 ? Integer.numberOfLeadingZeros(hi) : 32 + Integer.numberOfLeadingZeros((int) i);
    }

    public static int numberOfTrailingZeros(long i) {
        int lo = (int) i;
        return lo != 0 ? Integer.numberOfTrailingZeros(lo) : 32 + Integer.numberOfTrailingZeros((int) (i >>> 32));
    }

    public static int bitCount(long i) {
        return Integer.bitCount((int) i) + Integer.bitCount((int) (i >>> 32));
    }

    public static long rotateLeft(long i, int distance) {
        return (i << distance) | (i >>> -distance);
    }

    public static long rotateRight(long i, int distance) {
        return (i >>> distance) | (i << -distance);
    }

    public static long reverse(long i) {
        return ((long) Integer.reverse((int) i) << 32) | (Integer.reverse((int) (i >>> 32)) & 0xffffffffL);
    }

    public static long reverseBytes(long i) {
        return ((long) Integer.reverseBytes((int) i) << 32) | (Integer.reverseBytes((int) (i >>> 32)) & 0xffffffffL);
    }

    public static int signum(long i) {
        return (int) ((i >> 63) | (-i >>> 63));
    }

    public static long sum(long a, long b) {
        return a + b;
    }

    public static long max(long a, long b) {
        return Math.max(a, b);
    }

    public static long min(long a, long b) {
        return Math.min(a, b);
    }
}
