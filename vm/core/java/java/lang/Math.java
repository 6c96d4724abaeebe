package java.lang;

import java.util.Random;

/**
 * Numeric functions. The transcendental functions and floor/ceil/rint are
 * native (the VM's Go math); everything with exact integer or IEEE
 * semantics is Java.
 */
public final class Math {
    public static final double E = 2.718281828459045;
    public static final double PI = 3.141592653589793;

    private static final long DOUBLE_SIGN = 0x8000000000000000L;
    private static final int FLOAT_SIGN = 0x80000000;

    private Math() {
    }

    public static native double sin(double a);

    public static native double cos(double a);

    public static native double tan(double a);

    public static native double asin(double a);

    public static native double acos(double a);

    public static native double atan(double a);

    public static native double exp(double a);

    public static native double log(double a);

    public static native double log10(double a);

    public static native double sqrt(double a);

    public static native double cbrt(double a);

    public static native double sinh(double a);

    public static native double cosh(double a);

    public static native double tanh(double a);

    public static native double expm1(double a);

    public static native double log1p(double a);

    public static native double floor(double a);

    public static native double ceil(double a);

    public static native double rint(double a);

    public static native double atan2(double y, double x);

    public static native double pow(double a, double b);

    public static native double hypot(double x, double y);

    public static native double IEEEremainder(double f1, double f2);

    private static final class RandomHolder {
        static final Random RANDOM = new Random();
    }

    public static double random() {
        return RandomHolder.RANDOM.nextDouble();
    }

    public static int abs(int a) {
        return a < 0 ? -a : a;
    }

    public static long abs(long a) {
        return a < 0 ? -a : a;
    }

    public static float abs(float a) {
        return Float.intBitsToFloat(Float.floatToRawIntBits(a) & ~FLOAT_SIGN);
    }

    public static double abs(double a) {
        return Double.longBitsToDouble(Double.doubleToRawLongBits(a) & ~DOUBLE_SIGN);
    }

    public static int max(int a, int b) {
        return a >= b ? a : b;
    }

    public static long max(long a, long b) {
        return a >= b ? a : b;
    }

    public static int min(int a, int b) {
        return a <= b ? a : b;
    }

    public static long min(long a, long b) {
        return a <= b ? a : b;
    }

    // NaN wins; +0.0 is greater than -0.0.
    public static float max(float a, float b) {
        if (a != a) {
            return a;
        }
        if (a == 0.0f && b == 0.0f) {
            return Float.floatToRawIntBits(a) == 0 ? a : b;
        }
        return a >= b ? a : b;
    }

    public static double max(double a, double b) {
        if (a != a) {
            return a;
        }
        if (a == 0.0 && b == 0.0) {
            return Double.doubleToRawLongBits(a) == 0 ? a : b;
        }
        return a >= b ? a : b;
    }

    public static float min(float a, float b) {
        if (a != a) {
            return a;
        }
        if (a == 0.0f && b == 0.0f) {
            return Float.floatToRawIntBits(a) != 0 ? a : b;
        }
        return a <= b ? a : b;
    }

    public static double min(double a, double b) {
        if (a != a) {
            return a;
        }
        if (a == 0.0 && b == 0.0) {
            return Double.doubleToRawLongBits(a) != 0 ? a : b;
        }
        return a <= b ? a : b;
    }

    /** floor(a + 1/2) computed exactly: NaN is 0, out-of-range saturates. */
    public static long round(double a) {
        if (a != a) {
            return 0;
        }
        double f = floor(a);
        if (a - f >= 0.5) {
            f += 1.0;
        }
        return (long) f;
    }

    public static int round(float a) {
        if (a != a) {
            return 0;
        }
        float f = (float) floor(a);
        if (a - f >= 0.5f) {
            f += 1.0f;
        }
        return (int) f;
    }

    public static double signum(double d) {
        return (d == 0.0 || d != d) ? d : copySign(1.0, d);
    }

    public static float signum(float f) {
        return (f == 0.0f || f != f) ? f : copySign(1.0f, f);
    }

    public static double copySign(double magnitude, double sign) {
        return Double.longBitsToDouble((Double.doubleToRawLongBits(sign) & DOUBLE_SIGN)
                | (Double.doubleToRawLongBits(magnitude) & ~DOUBLE_SIGN));
    }

    public static float copySign(float magnitude, float sign) {
        return Float.intBitsToFloat((Float.floatToRawIntBits(sign) & FLOAT_SIGN)
                | (Float.floatToRawIntBits(magnitude) & ~FLOAT_SIGN));
    }

    public static int getExponent(double d) {
        return (int) ((Double.doubleToRawLongBits(d) >>> 52) & 0x7ff) - 1023;
    }

    public static int getExponent(float f) {
        return ((Float.floatToRawIntBits(f) >>> 23) & 0xff) - 127;
    }

    public static double ulp(double d) {
        int exp = getExponent(d);
        if (exp == 1024) {
            return abs(d);
        }
        if (exp == -1023) {
            return Double.MIN_VALUE;
        }
        exp -= 52;
        if (exp >= -1022) {
            return Double.longBitsToDouble((long) (exp + 1023) << 52);
        }
        return Double.longBitsToDouble(1L << (exp + 1074));
    }

    public static float ulp(float f) {
        int exp = getExponent(f);
        if (exp == 128) {
            return abs(f);
        }
        if (exp == -127) {
            return Float.MIN_VALUE;
        }
        exp -= 23;
        if (exp >= -126) {
            return Float.intBitsToFloat((exp + 127) << 23);
        }
        return Float.intBitsToFloat(1 << (exp + 149));
    }

    public static double nextUp(double d) {
        if (d != d || d == Double.POSITIVE_INFINITY) {
            return d;
        }
        d += 0.0;
        long bits = Double.doubleToRawLongBits(d);
        return Double.longBitsToDouble(bits + (d >= 0.0 ? 1 : -1));
    }

    public static double nextDown(double d) {
        if (d != d || d == Double.NEGATIVE_INFINITY) {
            return d;
        }
        if (d == 0.0) {
            return -Double.MIN_VALUE;
        }
        long bits = Double.doubleToRawLongBits(d);
        return Double.longBitsToDouble(bits + (d > 0.0 ? -1 : 1));
    }

    public static float nextUp(float f) {
        if (f != f || f == Float.POSITIVE_INFINITY) {
            return f;
        }
        f += 0.0f;
        int bits = Float.floatToRawIntBits(f);
        return Float.intBitsToFloat(bits + (f >= 0.0f ? 1 : -1));
    }

    public static float nextDown(float f) {
        if (f != f || f == Float.NEGATIVE_INFINITY) {
            return f;
        }
        if (f == 0.0f) {
            return -Float.MIN_VALUE;
        }
        int bits = Float.floatToRawIntBits(f);
        return Float.intBitsToFloat(bits + (f > 0.0f ? -1 : 1));
    }

    /** Returns the double next to start in the direction of direction (direction if equal). */
    public static double nextAfter(double start, double direction) {
        if (start != start || direction != direction) {
            return start + direction;
        }
        if (start == direction) {
            return direction;
        }
        return start < direction ? nextUp(start) : nextDown(start);
    }

    /** Returns the float next to start in the direction of direction (direction if equal). */
    public static float nextAfter(float start, double direction) {
        if (start != start || direction != direction) {
            return (float) (start + direction);
        }
        if (start == direction) {
            return (float) direction;
        }
        return start < direction ? nextUp(start) : nextDown(start);
    }

    public static double toRadians(double angdeg) {
        return angdeg / 180.0 * PI;
    }

    public static double toDegrees(double angrad) {
        return angrad * 180.0 / PI;
    }

    public static int floorDiv(int x, int y) {
        int q = x / y;
        if ((x % y != 0) && ((x ^ y) < 0)) {
            q--;
        }
        return q;
    }

    public static long floorDiv(long x, long y) {
        long q = x / y;
        if ((x % y != 0) && ((x ^ y) < 0)) {
            q--;
        }
        return q;
    }

    public static int floorMod(int x, int y) {
        return x - floorDiv(x, y) * y;
    }

    public static long floorMod(long x, long y) {
        return x - floorDiv(x, y) * y;
    }

    public static int addExact(int x, int y) {
        int r = x + y;
        // Overflow iff both operands have the sign opposite to the result's.
        if (((x ^ r) & (y ^ r)) < 0) {
            throw new ArithmeticException("integer overflow");
        }
        return r;
    }

    public static long addExact(long x, long y) {
        long r = x + y;
        if (((x ^ r) & (y ^ r)) < 0) {
            throw new ArithmeticException("long overflow");
        }
        return r;
    }

    public static int subtractExact(int x, int y) {
        int r = x - y;
        if (((x ^ y) & (x ^ r)) < 0) {
            throw new ArithmeticException("integer overflow");
        }
        return r;
    }

    public static long subtractExact(long x, long y) {
        long r = x - y;
        if (((x ^ y) & (x ^ r)) < 0) {
            throw new ArithmeticException("long overflow");
        }
        return r;
    }

    public static int multiplyExact(int x, int y) {
        long r = (long) x * (long) y;
        if ((int) r != r) {
            throw new ArithmeticException("integer overflow");
        }
        return (int) r;
    }

    public static long multiplyExact(long x, long y) {
        long r = x * y;
        if (x != 0 && (r / x != y || (x == -1 && y == Long.MIN_VALUE))) {
            throw new ArithmeticException("long overflow");
        }
        return r;
    }

    public static int incrementExact(int a) {
        if (a == Integer.MAX_VALUE) {
            throw new ArithmeticException("integer overflow");
        }
        return a + 1;
    }

    public static long incrementExact(long a) {
        if (a == Long.MAX_VALUE) {
            throw new ArithmeticException("long overflow");
        }
        return a + 1L;
    }

    public static int decrementExact(int a) {
        if (a == Integer.MIN_VALUE) {
            throw new ArithmeticException("integer overflow");
        }
        return a - 1;
    }

    public static long decrementExact(long a) {
        if (a == Long.MIN_VALUE) {
            throw new ArithmeticException("long overflow");
        }
        return a - 1L;
    }

    public static int negateExact(int a) {
        if (a == Integer.MIN_VALUE) {
            throw new ArithmeticException("integer overflow");
        }
        return -a;
    }

    public static long negateExact(long a) {
        if (a == Long.MIN_VALUE) {
            throw new ArithmeticException("long overflow");
        }
        return -a;
    }

    public static int toIntExact(long value) {
        if ((int) value != value) {
            throw new ArithmeticException("integer overflow");
        }
        return (int) value;
    }
}
