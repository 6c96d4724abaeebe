package caffeine;

/**
 * CaffeineMark-style loop test: nested counted loops over an int array
 * (fill, prefix sums, a strided sweep and a countdown loop), repeated.
 * Argument: repetitions (default 100). Prints a checksum.
 */
public final class LoopTest {
    private LoopTest() {}

    /** Runs one round of the loops over a and returns its checksum. */
    public static long round(int[] a, int salt) {
        int n = a.length;
        for (int i = 0; i < n; i++) {
            a[i] = (i * 7 + salt) & 1023;
        }
        for (int i = 1; i < n; i++) {
            a[i] += a[i - 1];
        }
        long sum = 0;
        for (int stride = 1; stride <= 8; stride *= 2) {
            for (int start = 0; start < stride; start++) {
                for (int i = start; i < n; i += stride) {
                    sum += a[i] ^ stride;
                }
            }
        }
        int k = n;
        while (k-- > 0) {
            sum -= a[k] >> 3;
        }
        do {
            sum = sum * 3 + 1;
            k += 1000;
        } while (k < n);
        return sum;
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int[] a = new int[4000];
        long check = 0;
        for (int r = 0; r < reps; r++) {
            check = check * 31 + round(a, r);
        }
        System.out.println("Loop reps=" + reps + " checksum=" + check);
    }
}
