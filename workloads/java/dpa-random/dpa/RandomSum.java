package dpa;

import java.util.Random;

/**
 * DPA method workload: random numbers.
 *
 * <p>Profiled method: {@code dpa.RandomSum.sum(I)J}, which adds n values of
 * {@code new java.util.Random(20240601).nextInt(1000)}. Argument: n
 * (default 200000). Prints the sum.
 */
public final class RandomSum {
    private RandomSum() {}

    /** Returns the sum of n pseudo-random ints in [0, 1000) from a fixed seed. */
    public static long sum(int n) {
        Random r = new Random(20240601L);
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += r.nextInt(1000);
        }
        return s;
    }

    static int size(String[] args) {
        return args.length > 0 ? Integer.parseInt(args[0]) : 200000;
    }

    static void report(int n, long s) {
        System.out.println("randomSum(" + n + ") = " + s);
    }

    public static void main(String[] args) {
        int n = size(args);
        report(n, sum(n));
    }
}
