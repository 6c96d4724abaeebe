// Language basics the VM must get exactly right; the expected output is
// whatever the JVM prints.
public class Main {
    interface Shape { double area(); default String kind() { return "shape"; } }
    static abstract class Base implements Shape {
        static int created;
        final String name;
        Base(String name) { this.name = name; created++; }
        public String toString() { return kind() + ":" + name; }
    }
    static final class Square extends Base {
        final double side;
        Square(double s) { super("square"); side = s; }
        public double area() { return side * side; }
        public String kind() { return "quad"; }
    }
    static final class Circle extends Base {
        final double r;
        Circle(double r) { super("circle"); this.r = r; }
        public double area() { return 3.0 * r * r; }
    }
    static class Init {
        static { System.out.println("Init.<clinit>"); }
        static int value = compute();
        static int compute() { System.out.println("Init.compute"); return 42; }
    }
    enum Color { RED, GREEN, BLUE }

    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    static int depth;
    static void recurse() { depth++; recurse(); }

    public static void main(String[] args) {
        // integer arithmetic edge cases
        int min = Integer.MIN_VALUE;
        System.out.println(min / -1);
        System.out.println(min % -1);
        System.out.println(7 / -2 + " " + 7 % -2 + " " + (-7 >> 1) + " " + (-7 >>> 28) + " " + (1 << 33));
        long lmin = Long.MIN_VALUE;
        System.out.println(lmin / -1 + " " + (lmin >> 65) + " " + (-1L >>> 60) + " " + Long.MAX_VALUE * 3);
        try { System.out.println(1 / (args.length)); } catch (ArithmeticException e) { System.out.println("caught ArithmeticException"); }
        // floating point
        double d = 0.1 + 0.2;
        System.out.println(d);
        System.out.println((float) d);
        System.out.println(1e7 + " " + 1e-3 + " " + 123456789.125 + " " + 1e-4 + " " + 100.0 + " " + -0.0 + " " + 1.0 / 0);
        System.out.println((int) Double.NaN + " " + (int) 1e20 + " " + (long) -1e30 + " " + (int) -2.7 + " " + (char) 65 + (byte) 200 + " " + (short) 70000);
        System.out.println(Float.MAX_VALUE + " " + Double.MIN_VALUE + " " + 3.4028235e38f * 10);
        System.out.println(Math.sqrt(2) + " " + 10 % 3.5 + " " + (0.0 / 0 == 0.0 / 0));
        // strings
        String s = "Hello";
        s += ", " + "world" + '!' + 1 + 2L + 3.5f + true + null;
        System.out.println(s + " " + s.length() + " " + s.indexOf("world") + " " + s.charAt(4) + " " + s.substring(7, 12).toUpperCase());
        System.out.println("abc".compareTo("abd") + " " + "abc".equals("ab" + "c") + " " + ("ab" + "c" == "abc") + " " + "x".hashCode() + " " + "hello world".hashCode());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(i).append(',');
        sb.setLength(sb.length() - 1);
        System.out.println(sb.reverse());
        System.out.println(Integer.toHexString(-1) + " " + Integer.toBinaryString(10) + " " + Long.toString(-1234567890123L) + " " + Integer.parseInt("-42") + " " + Integer.MAX_VALUE);
        // objects, interfaces, default methods, static init
        Shape[] shapes = { new Square(2), new Circle(1), new Square(3) };
        double total = 0;
        for (Shape sh : shapes) { total += sh.area(); System.out.println(sh); }
        System.out.println("total " + total + " created " + Base.created);
        System.out.println("before Init");
        System.out.println(Init.value);
        // switch, enums
        for (Color c : Color.values()) {
            switch (c) {
                case RED: System.out.println("r " + c.ordinal()); break;
                case GREEN: System.out.println("g " + c.name()); break;
                default: System.out.println("other " + c);
            }
        }
        System.out.println(Color.valueOf("BLUE").compareTo(Color.RED));
        int[] keys = { 1, 10, 100, 1000, -5 };
        for (int k : keys) {
            switch (k) { case 1: case 10: System.out.print("small "); break; case 1000: System.out.print("big "); break; default: System.out.print("? "); }
        }
        System.out.println();
        // arrays
        int[][] grid = new int[3][4];
        grid[1][2] = 5;
        long[] longs = { 1, 2, 3 };
        char[] cs = { 'a', 'b' };
        Object[] objs = new String[2];
        try { objs[0] = Integer.valueOf(1); } catch (ArrayStoreException e) { System.out.println("ASE"); }
        try { grid[3][0] = 1; } catch (ArrayIndexOutOfBoundsException e) { System.out.println("AIOOBE"); }
        try { Object o = "str"; Integer i = (Integer) o; } catch (ClassCastException e) { System.out.println("CCE"); }
        try { String n = null; n.length(); } catch (NullPointerException e) { System.out.println("NPE"); }
        try { int[] neg = new int[args.length - 1]; } catch (NegativeArraySizeException e) { System.out.println("NASE"); }
        System.out.println(grid[1][2] + longs[2] + new String(cs) + grid.length + grid[0].length);
        // exceptions through frames, finally
        try { thrower(3); } catch (IllegalStateException e) { System.out.println("caught " + e.getMessage()); } finally { System.out.println("finally"); }
        try { recurse(); } catch (StackOverflowError e) { System.out.println("SOE " + (depth > 1000)); }
        System.out.println(fib(20));
        // boxing, collections
        java.util.List<Integer> list = new java.util.ArrayList<Integer>();
        for (int i = 0; i < 20; i++) list.add(i * 7 % 11);
        java.util.Collections.sort(list);
        System.out.println(list);
        java.util.Map<String, Integer> map = new java.util.HashMap<String, Integer>();
        for (String w : "the quick brown fox jumps over the lazy dog the end".split(" ")) {
            Integer c = map.get(w);
            map.put(w, c == null ? 1 : c + 1);
        }
        System.out.println(map);
        System.out.println(new java.util.TreeMap<String, Integer>(map));
        java.util.Random r = new java.util.Random(42);
        System.out.println(r.nextInt() + " " + r.nextInt(100) + " " + r.nextLong() + " " + r.nextDouble() + " " + r.nextBoolean());
        Object lock = new Object();
        synchronized (lock) { synchronized (lock) { System.out.println("locked twice"); } }
        System.out.println(Integer.valueOf(127) == Integer.valueOf(127));
        System.out.println(new Object().getClass().getName() + " " + new int[0].getClass().getName() + " " + String[].class.getName() + " " + int.class);
    }

    static void thrower(int n) {
        if (n == 0) throw new IllegalStateException("bottom");
        try { thrower(n - 1); } finally { System.out.println("unwind " + n); }
    }
}
