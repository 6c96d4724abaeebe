package caffeine;

/**
 * CaffeineMark-style float test: rotates a polygon of points repeatedly with
 * a rotation matrix of rational entries (3/5, 4/5), plus float and double
 * arithmetic on the coordinates. Only +, -, *, / are used, so results are
 * exact IEEE and identical everywhere. Argument: repetitions (default 600).
 * Prints checksums scaled by 1e6 and rounded.
 */
public final class FloatTest {
    private FloatTest() {}

    /** Rotates the points (xs, ys) steps times; returns the summed radii squared. */
    public static double rotate(double[] xs, double[] ys, int steps) {
        double c = 0.6;
        double s = 0.8;
        double acc = 0.0;
        for (int k = 0; k < steps; k++) {
            for (int i = 0; i < xs.length; i++) {
                double x = xs[i];
                double y = ys[i];
                xs[i] = c * x - s * y;
                ys[i] = s * x + c * y;
                acc += (xs[i] * xs[i] + ys[i] * ys[i]) / (1.0 + i);
            }
        }
        return acc;
    }

    /** Single-precision mix of the points; returns a float sum. */
    public static float floats(double[] xs, double[] ys) {
        float f = 0.0f;
        for (int i = 0; i < xs.length; i++) {
            float x = (float) xs[i];
            float y = (float) ys[i];
            f += x * y - (x / (1.5f + y * y));
        }
        return f;
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        int n = 64;
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = (i % 8) - 3.5;
            ys[i] = (i / 8) * 0.25 - 1.0;
        }
        double acc = 0.0;
        double fsum = 0.0;
        for (int r = 0; r < reps; r++) {
            acc += rotate(xs, ys, 4);
            fsum += floats(xs, ys);
        }
        System.out.println("Float reps=" + reps + " acc_e6=" + Math.round(acc * 1e6)
                + " float_e6=" + Math.round(fsum * 1e6) + " x0_e6=" + Math.round(xs[0] * 1e6));
    }
}
