package java.lang;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/** Access to the standard streams, time, properties and array copying. */
public final class System {
    public static PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
    public static PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true);

    private System() {
    }

    public static void setOut(PrintStream out) {
        System.out = out;
    }

    public static void setErr(PrintStream err) {
        System.err = err;
    }

    public static native void arraycopy(Object src, int srcPos, Object dst, int dstPos, int length);

    public static native long nanoTime();

    public static native long currentTimeMillis();

    public static native int identityHashCode(Object x);

    private static native void exit0(int status);

    public static native void gc();

    public static void exit(int status) {
        exit0(status);
    }

    public static void runFinalization() {
    }

    public static String getProperty(String key) {
        if (key == null) {
            throw new NullPointerException("key can't be null");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("key can't be empty");
        }
        if (key.equals("line.separator")) {
            return "\n";
        }
        if (key.equals("java.vm.name")) {
            return "Dalvik";
        }
        if (key.equals("java.version")) {
            return "0";
        }
        if (key.equals("file.separator")) {
            return "/";
        }
        if (key.equals("path.separator")) {
            return ":";
        }
        return null;
    }

    public static String getProperty(String key, String def) {
        String v = getProperty(key);
        return v == null ? def : v;
    }

    public static String lineSeparator() {
        return "\n";
    }

    public static String getenv(String name) {
        if (name == null) {
            throw new NullPointerException();
        }
        return null;
    }
}
