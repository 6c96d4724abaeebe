package dalvik.system;

/** Android's VM debugging hooks: the ones droidprof's VM implements. */
public final class VMDebug {
    private VMDebug() {
    }

    /**
     * The CPU time of the calling thread in nanoseconds: the time it has
     * run Java code (held the VM), on the VM's clock.
     */
    public static native long threadCpuTimeNanos();
}
