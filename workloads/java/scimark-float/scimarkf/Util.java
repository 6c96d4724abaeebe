package scimarkf;

import java.util.Random;

/**
 * Helpers shared by the single-precision SciMark-style kernels; compiled
 * into scimark-float.dex.
 */
public final class Util {
    private Util() {}

    /** Returns args[i] as an int, or def when it is absent. */
    public static int intArg(String[] args, int i, int def) {
        return args.length > i ? Integer.parseInt(args[i]) : def;
    }

    /** Returns n doubles uniform in [0, 1). */
    public static float[] randomVector(int n, Random r) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextFloat();
        }
        return v;
    }

    /** Returns an m x n matrix of doubles uniform in [0, 1). */
    public static float[][] randomMatrix(int m, int n, Random r) {
        float[][] a = new float[m][];
        for (int i = 0; i < m; i++) {
            a[i] = randomVector(n, r);
        }
        return a;
    }

    /**
     * Returns x scaled by 10^6 and rounded: a checksum that prints the same
     * on every VM even where the last bits of x would print differently.
     */
    public static long fixed(float x) {
        return Math.round(x * 1e6);
    }

    /** Returns the sum of v. */
    public static float sum(float[] v) {
        float s = 0.0f;
        for (int i = 0; i < v.length; i++) {
            s += v[i];
        }
        return s;
    }
}
