package dpa;

/**
 * Source-instrumented variant of {@link MatMul}: same stdout, and the
 * elapsed System.nanoTime() around the call of
 * {@code dpa.MatMul.multiply([[D[[D)[[D} on stderr.
 */
public final class MatMulTimed {
    private MatMulTimed() {}

    public static void main(String[] args) {
        int n = MatMul.size(args);
        double[][] a = MatMul.matrix(n, 1);
        double[][] b = MatMul.matrix(n, 2);
        long t0 = System.nanoTime();
        double[][] c = MatMul.multiply(a, b);
        long t1 = System.nanoTime();
        MatMul.report(c);
        System.err.println("dpa.MatMul.multiply elapsed_ns=" + (t1 - t0));
    }
}
