package caffeine;

/**
 * CaffeineMark-style method test: static, private, virtual (through an
 * abstract class) and interface calls, and recursion, in a loop. Argument:
 * repetitions (default 200). Prints the accumulated results.
 */
public final class MethodTest {
    interface Op {
        int apply(int a, int b);
    }

    abstract static class Shape {
        abstract int area(int k);

        int twice(int k) {
            return area(k) * 2;
        }
    }

    static final class Square extends Shape {
        @Override
        int area(int k) {
            return k * k;
        }
    }

    static final class Tri extends Shape {
        @Override
        int area(int k) {
            return k * (k + 1) / 2;
        }
    }

    static final class Add implements Op {
        @Override
        public int apply(int a, int b) {
            return a + b;
        }
    }

    static final class Mix implements Op {
        @Override
        public int apply(int a, int b) {
            return (a * 31) ^ b;
        }
    }

    private int counter;

    private int bump(int by) {
        counter += by;
        return counter;
    }

    static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    static int ackermannish(int m, int n) {
        if (m == 0) {
            return n + 1;
        }
        if (n == 0) {
            return ackermannish(m - 1, 1);
        }
        return ackermannish(m - 1, ackermannish(m, n - 1));
    }

    static int leaf(int x) {
        return x + 1;
    }

    /** Runs one round of calls and returns its result. */
    public static long round(int n) {
        MethodTest self = new MethodTest();
        Shape[] shapes = {new Square(), new Tri()};
        Op[] ops = {new Add(), new Mix()};
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += leaf(i);
            acc += self.bump(i & 7);
            acc += shapes[i & 1].twice(i & 63);
            acc = ops[(i >> 1) & 1].apply((int) acc & 0xFFFF, i);
        }
        acc += depth(200);
        acc += ackermannish(2, 3);
        return acc;
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long check = 0;
        for (int r = 0; r < reps; r++) {
            check = check * 3 + round(1000 + r);
        }
        System.out.println("Method reps=" + reps + " checksum=" + check);
    }
}
