package scimarkf;

import java.util.Random;

/**
 * SciMark-style kernel in single precision (the double kernel of package
 * scimark with every double a float, for opcost's use case): sparse matrix-vector multiply, compressed row
 * storage.
 *
 * <p>An n x n matrix with nz nonzeros spread evenly over the rows (nz / n
 * per row, at distinct columns with a row-dependent stride), random values;
 * y = A x is computed cycles times.
 *
 * <p>Arguments: n (default 1000), nz (default 5000), cycles (default 100).
 * Prints n, the number of nonzeros and the sum of y (scaled by 1e6 and
 * rounded).
 */
public final class SparseMatMult {
    private SparseMatMult() {}

    /** Computes y = A x cycles times, with A in compressed row storage. */
    public static void matmult(float[] y, float[] val, int[] row, int[] col, float[] x, int cycles) {
        int m = row.length - 1;
        for (int c = 0; c < cycles; c++) {
            for (int r = 0; r < m; r++) {
                float sum = 0.0f;
                int end = row[r + 1];
                for (int i = row[r]; i < end; i++) {
                    sum += x[col[i]] * val[i];
                }
                y[r] = sum;
            }
        }
    }

    public static void main(String[] args) {
        int n = Util.intArg(args, 0, 1000);
        int nz = Util.intArg(args, 1, 5000);
        int cycles = Util.intArg(args, 2, 100);
        Random r = new Random(303030L);
        int perRow = Math.max(1, Math.min(n, nz / n));
        int total = perRow * n;
        float[] x = Util.randomVector(n, r);
        float[] val = Util.randomVector(total, r);
        int[] row = new int[n + 1];
        int[] col = new int[total];
        for (int i = 0; i < n; i++) {
            row[i] = i * perRow;
            int stride = Math.max(1, (n - 1) / perRow);
            int start = r.nextInt(n);
            for (int k = 0; k < perRow; k++) {
                col[i * perRow + k] = (start + k * stride) % n;
            }
        }
        row[n] = total;
        float[] y = new float[n];
        matmult(y, val, row, col, x, cycles);
        System.out.println("SparseMatMult n=" + n + " nz=" + total + " cycles=" + cycles
                + " sum_e6=" + Util.fixed(Util.sum(y)));
    }
}
