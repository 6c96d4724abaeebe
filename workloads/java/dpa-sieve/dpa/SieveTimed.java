package dpa;

/**
 * Source-instrumented variant of {@link Sieve}: same stdout, and the elapsed
 * System.nanoTime() around the call of {@code dpa.Sieve.sieve(I)I} on stderr.
 */
public final class SieveTimed {
    private SieveTimed() {}

    public static void main(String[] args) {
        int n = Sieve.size(args);
        long t0 = System.nanoTime();
        int count = Sieve.sieve(n);
        long t1 = System.nanoTime();
        Sieve.report(n, count);
        System.err.println("dpa.Sieve.sieve elapsed_ns=" + (t1 - t0));
    }
}
