package scimarkf;

import java.util.Random;

/**
 * SciMark-style kernel in single precision (the double kernel of package
 * scimark with every double a float, for opcost's use case): successive over-relaxation.
 *
 * <p>An n x n grid of random values; each sweep replaces every interior
 * point, in place and in row order, by omega/4 times the sum of its four
 * neighbours plus (1 - omega) times its old value, with omega = 1.25f.
 *
 * <p>Arguments: n (default 100), sweeps (default 20). Prints n, sweeps and
 * the sum of the grid (scaled by 1e6 and rounded).
 */
public final class SOR {
    private SOR() {}

    /** Relaxes the interior of g sweeps times with factor omega. */
    public static void execute(float omega, float[][] g, int sweeps) {
        int m = g.length;
        int n = g[0].length;
        float quarter = omega * 0.25f;
        float keep = 1.0f - omega;
        for (int p = 0; p < sweeps; p++) {
            for (int i = 1; i < m - 1; i++) {
                float[] up = g[i - 1];
                float[] row = g[i];
                float[] down = g[i + 1];
                for (int j = 1; j < n - 1; j++) {
                    row[j] = quarter * (up[j] + down[j] + row[j - 1] + row[j + 1]) + keep * row[j];
                }
            }
        }
    }

    public static void main(String[] args) {
        int n = Util.intArg(args, 0, 100);
        int sweeps = Util.intArg(args, 1, 20);
        float[][] g = Util.randomMatrix(n, n, new Random(202020L));
        execute(1.25f, g, sweeps);
        float sum = 0.0f;
        for (int i = 0; i < n; i++) {
            sum += Util.sum(g[i]);
        }
        System.out.println("SOR n=" + n + " sweeps=" + sweeps + " sum_e6=" + Util.fixed(sum)
                + " center_e6=" + Util.fixed(g[n / 2][n / 2]));
    }
}
