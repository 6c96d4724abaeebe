package dpa;

/**
 * Source-instrumented variant of {@link Fib}: same stdout, and the elapsed
 * System.nanoTime() around the call of {@code dpa.Fib.fib(I)I} on stderr.
 */
public final class FibTimed {
    private FibTimed() {}

    public static void main(String[] args) {
        int n = Fib.size(args);
        long t0 = System.nanoTime();
        int r = Fib.fib(n);
        long t1 = System.nanoTime();
        Fib.report(n, r);
        System.err.println("dpa.Fib.fib elapsed_ns=" + (t1 - t0));
    }
}
