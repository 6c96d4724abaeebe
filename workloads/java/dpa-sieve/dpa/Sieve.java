package dpa;

/**
 * DPA method workload: prime sieve.
 *
 * <p>Profiled method: {@code dpa.Sieve.sieve(I)I}, the sieve of Eratosthenes
 * over [0, n), returning the number of primes. Argument: n (default 1000000).
 * Prints the count.
 */
public final class Sieve {
    private Sieve() {}

    /** Returns the number of primes below n. */
    public static int sieve(int n) {
        if (n < 3) {
            return 0;
        }
        boolean[] composite = new boolean[n];
        int count = 0;
        for (int i = 2; i < n; i++) {
            if (!composite[i]) {
                count++;
                for (long j = (long) i * i; j < n; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return count;
    }

    static int size(String[] args) {
        return args.length > 0 ? Integer.parseInt(args[0]) : 1000000;
    }

    static void report(int n, int count) {
        System.out.println("sieve(" + n + ") = " + count + " primes");
    }

    public static void main(String[] args) {
        int n = size(args);
        report(n, sieve(n));
    }
}
