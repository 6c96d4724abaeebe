package dpa;

/**
 * Source-instrumented variant of {@link RandomSum}: same stdout, and the
 * elapsed System.nanoTime() around the call of {@code dpa.RandomSum.sum(I)J}
 * on stderr.
 */
public final class RandomSumTimed {
    private RandomSumTimed() {}

    public static void main(String[] args) {
        int n = RandomSum.size(args);
        long t0 = System.nanoTime();
        long s = RandomSum.sum(n);
        long t1 = System.nanoTime();
        RandomSum.report(n, s);
        System.err.println("dpa.RandomSum.sum elapsed_ns=" + (t1 - t0));
    }
}
