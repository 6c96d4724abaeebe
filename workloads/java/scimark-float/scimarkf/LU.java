package scimarkf;

import java.util.Random;

/**
 * SciMark-style kernel in single precision (the double kernel of package
 * scimark with every double a float, for opcost's use case): LU factorisation with partial pivoting.
 *
 * <p>Factors a random n x n matrix in place (row-oriented Doolittle
 * elimination; at each column the row with the largest magnitude pivot is
 * swapped up), then solves A x = b with the factors and measures the
 * residual against the original matrix.
 *
 * <p>Argument: n (default 120). Prints n, a checksum of the pivot vector,
 * the sum of x (scaled by 1e6 and rounded) and whether the residual is
 * small.
 */
public final class LU {
    private LU() {}

    /**
     * Factors a in place into unit lower L and upper U with PA = LU,
     * recording the row swaps in pivot. Returns false if a is singular.
     */
    public static boolean factor(float[][] a, int[] pivot) {
        int n = a.length;
        for (int j = 0; j < n; j++) {
            int p = j;
            float max = Math.abs(a[j][j]);
            for (int i = j + 1; i < n; i++) {
                float v = Math.abs(a[i][j]);
                if (v > max) {
                    max = v;
                    p = i;
                }
            }
            pivot[j] = p;
            if (a[p][j] == 0.0f) {
                return false;
            }
            if (p != j) {
                float[] t = a[p];
                a[p] = a[j];
                a[j] = t;
            }
            float[] rj = a[j];
            float inv = 1.0f / rj[j];
            for (int i = j + 1; i < n; i++) {
                float[] ri = a[i];
                float f = ri[j] * inv;
                ri[j] = f;
                if (f != 0.0f) {
                    for (int k = j + 1; k < n; k++) {
                        ri[k] -= f * rj[k];
                    }
                }
            }
        }
        return true;
    }

    /** Solves LU x = P b in place in b, given the output of factor. */
    public static void solve(float[][] lu, int[] pivot, float[] b) {
        int n = lu.length;
        for (int i = 0; i < n; i++) {
            int p = pivot[i];
            float t = b[p];
            b[p] = b[i];
            b[i] = t;
        }
        for (int i = 0; i < n; i++) {
            float s = b[i];
            for (int j = 0; j < i; j++) {
                s -= lu[i][j] * b[j];
            }
            b[i] = s;
        }
        for (int i = n - 1; i >= 0; i--) {
            float s = b[i];
            for (int j = i + 1; j < n; j++) {
                s -= lu[i][j] * b[j];
            }
            b[i] = s / lu[i][i];
        }
    }

    public static void main(String[] args) {
        int n = Util.intArg(args, 0, 120);
        Random r = new Random(404040L);
        float[][] a = Util.randomMatrix(n, n, r);
        float[] b = Util.randomVector(n, r);
        float[][] lu = new float[n][];
        for (int i = 0; i < n; i++) {
            lu[i] = new float[n];
            System.arraycopy(a[i], 0, lu[i], 0, n);
        }
        int[] pivot = new int[n];
        boolean ok = factor(lu, pivot);
        long pivots = 0;
        for (int i = 0; i < n; i++) {
            pivots = pivots * 31 + pivot[i];
        }
        float[] x = new float[n];
        System.arraycopy(b, 0, x, 0, n);
        solve(lu, pivot, x);
        float residual = 0.0f;
        for (int i = 0; i < n; i++) {
            float s = -b[i];
            for (int j = 0; j < n; j++) {
                s += a[i][j] * x[j];
            }
            residual = Math.max(residual, Math.abs(s));
        }
        System.out.println("LU n=" + n + " nonsingular=" + ok + " pivots=" + pivots
                + " sum_x_e6=" + Util.fixed(Util.sum(x)) + " residual_ok=" + (residual < 1e-8));
    }
}
