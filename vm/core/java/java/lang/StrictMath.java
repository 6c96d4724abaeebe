package java.lang;

/**
 * Numeric functions with reproducible results. This library delegates to
 * Math, whose natives the VM implements with fdlibm's algorithms
 * (vm/fdlibm), bit for bit the results StrictMath specifies.
 */
public final class StrictMath {
    public static final double E = Math.E;
    public static final double PI = Math.PI;

    private StrictMath() {
    }

    public static double sin(double a) {
        return Math.sin(a);
    }

    public static double cos(double a) {
        return Math.cos(a);
    }

    public static double tan(double a) {
        return Math.tan(a);
    }

    public static double asin(double a) {
        return Math.asin(a);
    }

    public static double acos(double a) {
        return Math.acos(a);
    }

    public static double atan(double a) {
        return Math.atan(a);
    }

    public static double exp(double a) {
        return Math.exp(a);
    }

    public static double log(double a) {
        return Math.log(a);
    }

    public static double log10(double a) {
        return Math.log10(a);
    }

    public static double sqrt(double a) {
        return Math.sqrt(a);
    }

    public static double cbrt(double a) {
        return Math.cbrt(a);
    }

    public static double sinh(double a) {
        return Math.sinh(a);
    }

    public static double cosh(double a) {
        return Math.cosh(a);
    }

    public static double tanh(double a) {
        return Math.tanh(a);
    }

    public static double expm1(double a) {
        return Math.expm1(a);
    }

    public static double log1p(double a) {
        return Math.log1p(a);
    }

    public static double floor(double a) {
        return Math.floor(a);
    }

    public static double ceil(double a) {
        return Math.ceil(a);
    }

    public static double rint(double a) {
        return Math.rint(a);
    }

    public static double toRadians(double a) {
        return Math.toRadians(a);
    }

    public static double toDegrees(double a) {
        return Math.toDegrees(a);
    }

    public static double signum(double a) {
        return Math.signum(a);
    }

    public static double ulp(double a) {
        return Math.ulp(a);
    }

    public static double nextUp(double a) {
        return Math.nextUp(a);
    }

    public static double nextDown(double a) {
        return Math.nextDown(a);
    }

    public static double nextAfter(double start, double direction) {
        return Math.nextAfter(start, direction);
    }

    public static float nextAfter(float start, double direction) {
        return Math.nextAfter(start, direction);
    }

    public static double abs(double a) {
        return Math.abs(a);
    }

    public static double atan2(double a, double b) {
        return Math.atan2(a, b);
    }

    public static double pow(double a, double b) {
        return Math.pow(a, b);
    }

    public static double hypot(double a, double b) {
        return Math.hypot(a, b);
    }

    public static double IEEEremainder(double a, double b) {
        return Math.IEEEremainder(a, b);
    }

    public static double max(double a, double b) {
        return Math.max(a, b);
    }

    public static double min(double a, double b) {
        return Math.min(a, b);
    }

    public static double copySign(double a, double b) {
        return Math.copySign(a, b);
    }

    public static int max(int a, int b) {
        return Math.max(a, b);
    }

    public static int min(int a, int b) {
        return Math.min(a, b);
    }

    public static int abs(int a) {
        return Math.abs(a);
    }

    public static long max(long a, long b) {
        return Math.max(a, b);
    }

    public static long min(long a, long b) {
        return Math.min(a, b);
    }

    public static long abs(long a) {
        return Math.abs(a);
    }

    public static float max(float a, float b) {
        return Math.max(a, b);
    }

    public static float min(float a, float b) {
        return Math.min(a, b);
    }

    public static float abs(float a) {
        return Math.abs(a);
    }

    public static long round(double a) {
        return Math.round(a);
    }

    public static int round(float a) {
        return Math.round(a);
    }

    public static double random() {
        return Math.random();
    }

    public static int floorDiv(int x, int y) {
        return Math.floorDiv(x, y);
    }

    public static long floorDiv(long x, long y) {
        return Math.floorDiv(x, y);
    }

    public static int floorMod(int x, int y) {
        return Math.floorMod(x, y);
    }

    public static long floorMod(long x, long y) {
        return Math.floorMod(x, y);
    }
}
