package dpa;

/**
 * DPA method workload: recursive Fibonacci.
 *
 * <p>Profiled method: {@code dpa.Fib.fib(I)I}. Argument: n (default 27).
 * Prints {@code fib(n) = F(n)}.
 */
public final class Fib {
    private Fib() {}

    /** Returns the n-th Fibonacci number, computed by naive recursion. */
    public static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    static int size(String[] args) {
        return args.length > 0 ? Integer.parseInt(args[0]) : 27;
    }

    static void report(int n, int r) {
        System.out.println("fib(" + n + ") = " + r);
    }

    public static void main(String[] args) {
        int n = size(args);
        report(n, fib(n));
    }
}
