package caffeine;

/**
 * CaffeineMark-style logic test: boolean expressions, comparisons and
 * integer bit operations in a tight loop, repeated. Argument: repetitions
 * (default 100). Prints how many conditions held and a bit checksum.
 */
public final class LogicTest {
    private LogicTest() {}

    /** Evaluates the logic kernel for n steps starting at seed. */
    public static long round(int n, int seed) {
        boolean a = true;
        boolean b = false;
        boolean c = (seed & 1) == 0;
        int x = seed;
        long held = 0;
        int bits = 0;
        for (int i = 0; i < n; i++) {
            boolean d = (a && !b) || (c ^ (i % 3 == 0));
            boolean e = !(a || b) && c || (x < i);
            if (d) {
                held++;
            }
            if (e && !d) {
                held += 2;
            }
            if (d != e) {
                bits ^= x;
            }
            x = (x << 1) ^ (x >>> 3) ^ i;
            bits = (bits | (x & 0xF0)) & ~(i & 0x0F) ^ (bits >> 2);
            a = b ^ (x < 0);
            b = c | ((x & 4) != 0);
            c = !a & b;
        }
        return held * 65536 + (bits & 0xFFFF);
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        long held = 0;
        long check = 0;
        for (int r = 0; r < reps; r++) {
            long v = round(5000, r * 977 + 1);
            held += v >> 16;
            check = check * 17 + (v & 0xFFFF);
        }
        System.out.println("Logic reps=" + reps + " held=" + held + " checksum=" + check);
    }
}
