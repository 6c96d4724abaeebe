package dpa;

/**
 * Source-instrumented variant of {@link Concat}: same stdout, and the
 * elapsed System.nanoTime() around the call of
 * {@code dpa.Concat.concat(I)Ljava/lang/String;} on stderr.
 */
public final class ConcatTimed {
    private ConcatTimed() {}

    public static void main(String[] args) {
        int n = Concat.size(args);
        long t0 = System.nanoTime();
        String s = Concat.concat(n);
        long t1 = System.nanoTime();
        Concat.report(n, s);
        System.err.println("dpa.Concat.concat elapsed_ns=" + (t1 - t0));
    }
}
