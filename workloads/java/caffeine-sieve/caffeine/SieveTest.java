package caffeine;

/**
 * CaffeineMark-style sieve test: the sieve of Eratosthenes over 8192 flags,
 * repeated. Argument: repetitions (default 120). Prints the repetitions and
 * the number of primes found by the last pass.
 */
public final class SieveTest {
    private SieveTest() {}

    /** Runs one sieve over size flags and returns the number of primes. */
    public static int sieve(boolean[] flags) {
        int size = flags.length;
        for (int i = 0; i < size; i++) {
            flags[i] = true;
        }
        int count = 0;
        for (int i = 2; i < size; i++) {
            if (flags[i]) {
                count++;
                for (int k = i + i; k < size; k += i) {
                    flags[k] = false;
                }
            }
        }
        return count;
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        boolean[] flags = new boolean[8192];
        int count = 0;
        long total = 0;
        for (int r = 0; r < reps; r++) {
            count = sieve(flags);
            total += count;
        }
        System.out.println("Sieve reps=" + reps + " primes=" + count + " total=" + total);
    }
}
