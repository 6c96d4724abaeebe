import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Arrays;
import java.util.Map;

// Core-library methods the ART run-tests use: String's byte constructors
// and getBytes with charsets, Charset, Math.nextAfter/nextUp/nextDown,
// Thread's group constructors, ThreadGroup, getAllStackTraces, sleep(0).
public class Main {
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }

    static String codes(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) sb.append(Integer.toHexString(s.charAt(i))).append(' ');
        return sb.toString().trim();
    }

    // Bits, not toString: Double.toString's digits are not what this test is about.
    static String bits(double d) {
        return Long.toHexString(Double.doubleToRawLongBits(d));
    }

    static String bits(float f) {
        return Integer.toHexString(Float.floatToRawIntBits(f));
    }

    public static void main(String[] args) throws Exception {
        strings();
        charsets();
        maths();
        threads();
        loaders();
        byteStreams();
    }

    static void byteStreams() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(2);
        out.write('h');
        out.write("\u00e9llo".getBytes("UTF-8"));
        out.write(new byte[] {1, 2, 3, 4}, 1, 2);
        System.out.println(out.size() + " " + hex(out.toByteArray()) + " " + codes(out.toString("ISO-8859-1")) + " " + codes(out.toString()));
        java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream();
        out.writeTo(copy);
        out.reset();
        System.out.println(out.size() + " " + copy.size());
        java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(copy.toByteArray(), 1, 5);
        byte[] b = new byte[3];
        System.out.println(in.available() + " " + in.read() + " " + in.markSupported());
        in.mark(0);
        System.out.println(in.read(b) + " " + hex(b) + " " + in.skip(10) + " " + in.read() + " " + in.read(b, 0, 1));
        in.reset();
        System.out.println(in.read() + " " + in.available());
        try {
            out.write(new byte[2], 1, 2);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IndexOutOfBoundsException");
        }
    }

    static void loaders() throws Exception {
        ClassLoader sys = ClassLoader.getSystemClassLoader();
        System.out.println("system loads Main " + (sys.loadClass("Main") == Main.class) + " String " + (sys.loadClass("java.lang.String") == String.class) + " same " + (sys == ClassLoader.getSystemClassLoader()));
        try {
            sys.loadClass("NoSuchClass");
        } catch (ClassNotFoundException e) {
            System.out.println("ClassNotFoundException " + e.getMessage());
        }
        ClassLoader mine = new ClassLoader() {
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (name.equals("alias")) return StringBuilder.class;
                throw new ClassNotFoundException("mine: " + name);
            }
        };
        System.out.println("parent " + (mine.getParent() == sys) + " alias " + mine.loadClass("alias").getName() + " Main " + (mine.loadClass("Main") == Main.class));
        try {
            mine.loadClass("Nope");
        } catch (ClassNotFoundException e) {
            System.out.println("ClassNotFoundException " + e.getMessage());
        }
        sys.setDefaultAssertionStatus(true);
        try {
            throw new java.io.FileNotFoundException("missing.txt");
        } catch (java.io.IOException e) {
            System.out.println(e);
        }
    }

    static void strings() throws Exception {
        byte[] b = {72, 105, (byte) 0xe9, (byte) 0x80, 0x7f, (byte) 0xff};
        System.out.println(codes(new String(b, 0)));
        System.out.println(codes(new String(b, 1)));
        System.out.println(codes(new String(b, 0x1ff, 1, 3)));
        String[] names = {"UTF-8", "utf8", "ISO-8859-1", "latin1", "US-ASCII", "ascii", "UTF-16", "UTF-16BE", "UTF-16LE"};
        String text = "A\u00e9\u20ac\ud83d\ude00\ud800z";
        for (String n : names) {
            System.out.println(n + " decode " + codes(new String(b, n)) + " | " + codes(new String(b, 1, 4, n)));
            System.out.println(n + " encode " + hex(text.getBytes(n)) + " | " + hex("".getBytes(n)));
            Charset cs = Charset.forName(n);
            System.out.println(n + " -> " + cs.name() + " " + cs + " " + codes(new String(text.getBytes(cs), cs)));
        }
        byte[][] utf16 = {{(byte) 0xfe, (byte) 0xff, 0, 65}, {(byte) 0xff, (byte) 0xfe, 65, 0}, {0, 65, 0}, {(byte) 0xd8, 0, 0, 65}};
        for (byte[] u : utf16) {
            System.out.println("UTF-16 " + hex(u) + " " + codes(new String(u, "UTF-16")) + " BE " + codes(new String(u, StandardCharsets.UTF_16BE)));
        }
        for (String bad : new String[] {"no-such-charset", "bad name", ""}) {
            try {
                new String(b, bad);
                System.out.println("no exception");
            } catch (java.io.UnsupportedEncodingException e) {
                System.out.println("UnsupportedEncodingException " + e.getMessage());
            }
            try {
                "x".getBytes(bad);
                System.out.println("no exception");
            } catch (java.io.UnsupportedEncodingException e) {
                System.out.println("UnsupportedEncodingException " + e.getMessage());
            }
        }
        try {
            new String(b, 4, 3, "UTF-8");
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("StringIndexOutOfBoundsException");
        }
        byte[] dst = new byte[5];
        "h\u0101llo".getBytes(1, 4, dst, 1);
        System.out.println(hex(dst));
    }

    static void charsets() {
        for (String n : new String[] {"UTF-8", "x-nonesuch", "ISO8859_1", "UnicodeBigUnmarked"}) {
            System.out.println(n + " supported " + Charset.isSupported(n));
        }
        try {
            Charset.forName("x-nonesuch");
        } catch (UnsupportedCharsetException e) {
            System.out.println("UnsupportedCharsetException " + e.getCharsetName());
        }
        try {
            Charset.forName("-bad");
        } catch (IllegalCharsetNameException e) {
            System.out.println("IllegalCharsetNameException " + e.getCharsetName());
        }
        try {
            Charset.forName(null);
        } catch (IllegalArgumentException e) {
            System.out.println("IllegalArgumentException " + e.getMessage());
        }
        Charset u = StandardCharsets.UTF_8;
        System.out.println(u.equals(Charset.forName("utf-8")) + " " + (u.hashCode() == "UTF-8".hashCode()) + " " + u.compareTo(StandardCharsets.US_ASCII) + " " + u.aliases().contains("UTF8"));
        System.out.println(Charset.availableCharsets().containsKey("utf-16le"));
    }

    static void maths() {
        double[] ds = {0.0, -0.0, 1.0, -1.0, Double.MIN_VALUE, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 9.223372036854775807E18};
        for (double d : ds) {
            System.out.println(bits(d) + ": " + bits(Math.nextAfter(d, 0.0)) + " " + bits(Math.nextAfter(d, Double.POSITIVE_INFINITY)) + " " + bits(Math.nextAfter(d, Double.NEGATIVE_INFINITY)) + " " + bits(Math.nextAfter(d, d)) + " " + bits(Math.nextAfter(d, Double.NaN)) + " " + bits(StrictMath.nextAfter(d, -0.0)));
        }
        float[] fs = {0.0f, -0.0f, 1.0f, -1.0f, Float.MIN_VALUE, Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 2147483648.0f, -2147483648.0f};
        for (float f : fs) {
            System.out.println(bits(f) + ": " + bits(Math.nextAfter(f, 0.0)) + " " + bits(Math.nextAfter(f, Double.POSITIVE_INFINITY)) + " " + bits(Math.nextAfter(f, Double.NEGATIVE_INFINITY)) + " " + bits(Math.nextAfter(f, (double) f)) + " " + bits(Math.nextUp(f)) + " " + bits(Math.nextDown(f)) + " " + bits(Math.nextAfter(f, 1e300)));
        }
    }

    static void threads() throws Exception {
        Thread.sleep(0);
        Thread.sleep(0, 0);
        Thread main = Thread.currentThread();
        ThreadGroup g = main.getThreadGroup();
        System.out.println(main + " group " + g.getName() + " parent " + g.getParent().getName() + " " + g.getParent().parentOf(g));
        ThreadGroup mine = new ThreadGroup("mine");
        System.out.println(mine.getName() + " parent " + mine.getParent().getName());
        final Object lock = new Object();
        final boolean[] go = {false, false}; // go, inside
        Thread t = new Thread(mine, new Runnable() {
            public void run() {
                synchronized (lock) {
                    go[1] = true;
                    lock.notifyAll();
                    while (!go[0]) {
                        try {
                            lock.wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        }, "worker", 1 << 20);
        System.out.println(t + " " + (t.getThreadGroup() == mine));
        synchronized (lock) {
            t.start();
            // The worker holds lock from here until its wait() gives it up.
            while (!go[1]) {
                lock.wait();
            }
        }
        Thread[] list = new Thread[4];
        int n = mine.enumerate(list);
        System.out.println("mine holds " + n + " " + list[0].getName() + " active " + mine.activeCount());
        n = g.enumerate(list);
        boolean found = false;
        for (int i = 0; i < n; i++) found |= list[i] == main;
        System.out.println("main group holds main " + found);
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        System.out.println("all has main " + all.containsKey(main) + " worker " + all.containsKey(t));
        StackTraceElement[] st = all.get(main);
        for (StackTraceElement e : st) {
            if (e.getClassName().equals("Main")) {
                System.out.println("first Main frame " + e.getMethodName());
                break;
            }
        }
        boolean waits = false;
        for (StackTraceElement e : all.get(t)) waits |= e.getMethodName().equals("run") && e.getClassName().equals("Main$1");
        System.out.println("worker in run " + waits);
        synchronized (lock) {
            go[0] = true;
            lock.notifyAll();
        }
        t.join();
        System.out.println(t.getThreadGroup() + " " + t.getStackTrace().length + " " + Thread.getAllStackTraces().containsKey(t));
        Thread u = new Thread(null, null, "plain", 0);
        System.out.println(u + " " + (u.getThreadGroup() == g));
    }
}
