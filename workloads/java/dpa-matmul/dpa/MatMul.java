package dpa;

/**
 * DPA method workload: matrix multiply.
 *
 * <p>Profiled method: {@code dpa.MatMul.multiply([[D[[D)[[D}, the naive
 * triple loop. Argument: n (default 110), the matrices are n x n with small
 * integer-valued entries, so every product is exact. Prints the trace and
 * the sum of all entries of the product.
 */
public final class MatMul {
    private MatMul() {}

    /** Returns a * b; a is m x k, b is k x n. */
    public static double[][] multiply(double[][] a, double[][] b) {
        int m = a.length;
        int k = b.length;
        int n = b[0].length;
        double[][] c = new double[m][n];
        for (int i = 0; i < m; i++) {
            double[] ai = a[i];
            double[] ci = c[i];
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int p = 0; p < k; p++) {
                    s += ai[p] * b[p][j];
                }
                ci[j] = s;
            }
        }
        return c;
    }

    static int size(String[] args) {
        return args.length > 0 ? Integer.parseInt(args[0]) : 110;
    }

    static double[][] matrix(int n, int salt) {
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = ((i * i + 3 * j + salt * (i + 1) * (j + 2)) % 17) - 8;
            }
        }
        return m;
    }

    static void report(double[][] c) {
        double trace = 0.0;
        double sum = 0.0;
        for (int i = 0; i < c.length; i++) {
            trace += c[i][i];
            for (int j = 0; j < c[i].length; j++) {
                sum += c[i][j];
            }
        }
        System.out.println("matMul(" + c.length + "): trace=" + (long) trace + " sum=" + (long) sum);
    }

    public static void main(String[] args) {
        int n = size(args);
        double[][] a = matrix(n, 1);
        double[][] b = matrix(n, 2);
        report(multiply(a, b));
    }
}
