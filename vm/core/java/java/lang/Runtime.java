package java.lang;

/** The running VM: memory figures, processors, exit. */
public class Runtime {
    private static final Runtime RUNTIME = new Runtime();

    private Runtime() {
    }

    public static Runtime getRuntime() {
        return RUNTIME;
    }

    public native long freeMemory();

    public native long totalMemory();

    public native long maxMemory();

    public native int availableProcessors();

    public void gc() {
        System.gc();
    }

    public void exit(int status) {
        System.exit(status);
    }

    public void runFinalization() {
        java.lang.ref.FinalizerReference.runFinalization();
    }
}
