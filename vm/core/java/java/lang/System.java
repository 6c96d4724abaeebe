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
        java.lang.ref.FinalizerReference.runFinalization();
    }

    // What a program sees, as on Android 11 (vm/core/README.md lists
    // them): the platform's fixed values, then what the VM knows.
    private static final String[] FIXED = {
        "file.encoding", "UTF-8",
        "file.separator", "/",
        "java.class.version", "50.0",
        "java.compiler", "",
        "java.ext.dirs", "",
        "java.home", "/system",
        "java.io.tmpdir", "/tmp",
        "java.runtime.name", "Android Runtime",
        "java.runtime.version", "0.9",
        "java.specification.name", "Dalvik Core Library",
        "java.specification.vendor", "The Android Project",
        "java.specification.version", "0.9",
        "java.vendor", "The Android Project",
        "java.vendor.url", "http://www.android.com/",
        "java.version", "0",
        "java.vm.name", "Dalvik",
        "java.vm.specification.name", "Dalvik Virtual Machine Specification",
        "java.vm.specification.vendor", "The Android Project",
        "java.vm.specification.version", "0.9",
        "java.vm.vendor", "The Android Project",
        "java.vm.vendor.url", "http://www.android.com/",
        "java.vm.version", "2.1.0",
        "line.separator", "\n",
        "os.name", "Linux",
        "path.separator", ":",
        "user.home", "",
        "user.name", "",
    };

    private static java.util.Properties props;

    /** Returns key/value pairs the VM supplies: class paths, os.arch, os.version, user.dir. */
    private static native String[] vmProperties();

    private static synchronized java.util.Properties props() {
        if (props == null) {
            java.util.Properties p = new java.util.Properties();
            for (int i = 0; i < FIXED.length; i += 2) {
                p.setProperty(FIXED[i], FIXED[i + 1]);
            }
            String[] vm = vmProperties();
            for (int i = 0; i < vm.length; i += 2) {
                p.setProperty(vm[i], vm[i + 1]);
            }
            props = p;
        }
        return props;
    }

    private static void checkKey(String key) {
        if (key == null) {
            throw new NullPointerException("key can't be null");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("key can't be empty");
        }
    }

    public static String getProperty(String key) {
        checkKey(key);
        return props().getProperty(key);
    }

    public static String getProperty(String key, String def) {
        checkKey(key);
        return props().getProperty(key, def);
    }

    public static String setProperty(String key, String value) {
        checkKey(key);
        return (String) props().setProperty(key, value);
    }

    public static String clearProperty(String key) {
        checkKey(key);
        return (String) props().remove(key);
    }

    public static java.util.Properties getProperties() {
        return props();
    }

    /** Replaces the properties; null restores the VM's own. */
    public static synchronized void setProperties(java.util.Properties p) {
        props = p;
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
