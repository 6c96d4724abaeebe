package java.lang;

/**
 * A thread of execution. The VM owns nativePeer and runs run() on the new
 * thread after start0; when the thread ends it calls notifyAll on the
 * Thread object, which is what join waits for.
 */
public class Thread implements Runnable {
    public static final int MIN_PRIORITY = 1;
    public static final int NORM_PRIORITY = 5;
    public static final int MAX_PRIORITY = 10;

    /** Handles exceptions that end a thread. */
    @FunctionalInterface
    public interface UncaughtExceptionHandler {
        void uncaughtException(Thread t, Throwable e);
    }

    private static long nextId = 1;
    private static int anonymous;
    private static volatile UncaughtExceptionHandler defaultHandler;

    private volatile long nativePeer;
    private String name;
    private boolean daemon;
    private int priority;
    private Runnable target;
    private long tid;
    private boolean started;
    private volatile UncaughtExceptionHandler handler;
    private ThreadGroup group;
    private ClassLoader contextClassLoader; // null: the system class loader

    public Thread() {
        this(null, null, null, 0);
    }

    public Thread(Runnable target) {
        this(null, target, null, 0);
    }

    public Thread(String name) {
        this(null, null, name, 0);
    }

    public Thread(Runnable target, String name) {
        this(null, target, name, 0);
    }

    public Thread(ThreadGroup group, Runnable target) {
        this(group, target, null, 0);
    }

    public Thread(ThreadGroup group, String name) {
        this(group, null, name, 0);
    }

    public Thread(ThreadGroup group, Runnable target, String name) {
        this(group, target, name, 0);
    }

    /**
     * Creates a thread in group (null: the creator's) running target. The
     * VM sizes every thread's stack alike, so stackSize is only a hint, as
     * the platform allows.
     */
    public Thread(ThreadGroup group, Runnable target, String name, long stackSize) {
        synchronized (Thread.class) {
            tid = nextId++;
            if (name == null) {
                name = "Thread-" + anonymous++;
            }
        }
        this.name = name;
        this.target = target;
        this.priority = NORM_PRIORITY;
        // A new thread inherits daemon status, priority and group from its
        // creator; the VM's first thread has no creator and is in "main".
        Thread parent = currentThread();
        if (parent != null) {
            this.daemon = parent.daemon;
            this.priority = parent.priority;
            if (group == null) {
                group = parent.group;
            }
        }
        if (group == null) {
            group = ThreadGroup.mainThreadGroup;
        }
        this.group = group;
        if (priority > group.getMaxPriority()) {
            priority = group.getMaxPriority();
        }
    }

    public static native Thread currentThread();

    public ClassLoader getContextClassLoader() {
        return contextClassLoader != null ? contextClassLoader : ClassLoader.getSystemClassLoader();
    }

    public void setContextClassLoader(ClassLoader cl) {
        contextClassLoader = cl;
    }

    private native void start0();

    public static native void sleep(long millis, int nanos) throws InterruptedException;

    public static native void yield();

    public final native boolean isAlive();

    private native void interrupt0();

    private native boolean isInterrupted0(boolean clear);

    /** Returns the live threads the VM runs (those with a Thread object). */
    static native Thread[] getThreads0();

    /** Returns this thread's stack, innermost first, or null if it is not alive. */
    private native StackTraceElement[] getStackTrace0();

    public static void sleep(long millis) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        sleep(millis, 0);
    }

    public void run() {
        if (target != null) {
            target.run();
        }
    }

    public synchronized void start() {
        if (started) {
            throw new IllegalThreadStateException();
        }
        started = true;
        start0();
    }

    public final void join() throws InterruptedException {
        join(0);
    }

    public final synchronized void join(long millis) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        if (millis == 0) {
            while (isAlive()) {
                wait(0);
            }
            return;
        }
        long deadline = System.currentTimeMillis() + millis;
        while (isAlive()) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return;
            }
            wait(left);
        }
    }

    public final void join(long millis, int nanos) throws InterruptedException {
        if (nanos < 0 || nanos > 999999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        if (nanos > 0 && millis < Long.MAX_VALUE) {
            millis++;
        }
        join(millis);
    }

    public void interrupt() {
        interrupt0();
    }

    public boolean isInterrupted() {
        return isInterrupted0(false);
    }

    public static boolean interrupted() {
        return currentThread().isInterrupted0(true);
    }

    public final String getName() {
        return name;
    }

    public final synchronized void setName(String name) {
        if (name == null) {
            throw new NullPointerException("name cannot be null");
        }
        this.name = name;
    }

    public long getId() {
        return tid;
    }

    public final boolean isDaemon() {
        return daemon;
    }

    public final void setDaemon(boolean on) {
        if (isAlive()) {
            throw new IllegalThreadStateException();
        }
        daemon = on;
    }

    public final int getPriority() {
        return priority;
    }

    public final void setPriority(int newPriority) {
        if (newPriority < MIN_PRIORITY || newPriority > MAX_PRIORITY) {
            throw new IllegalArgumentException();
        }
        priority = newPriority;
    }

    public final ThreadGroup getThreadGroup() {
        return isAlive() || !started ? group : null;
    }

    public StackTraceElement[] getStackTrace() {
        StackTraceElement[] st = getStackTrace0();
        return st != null ? st : new StackTraceElement[0];
    }

    /** Returns the stacks of all live threads, as Thread.getStackTrace would. */
    public static java.util.Map<Thread, StackTraceElement[]> getAllStackTraces() {
        Thread[] all = getThreads0();
        java.util.Map<Thread, StackTraceElement[]> m = new java.util.HashMap<Thread, StackTraceElement[]>();
        for (int i = 0; i < all.length; i++) {
            StackTraceElement[] st = all[i].getStackTrace0();
            if (st != null) {
                m.put(all[i], st);
            }
        }
        return m;
    }

    public static int activeCount() {
        return currentThread().getThreadGroup().activeCount();
    }

    public static int enumerate(Thread[] list) {
        return currentThread().getThreadGroup().enumerate(list);
    }

    public String toString() {
        ThreadGroup g = getThreadGroup();
        return "Thread[" + name + "," + priority + "," + (g != null ? g.getName() : "") + "]";
    }

    public static UncaughtExceptionHandler getDefaultUncaughtExceptionHandler() {
        return defaultHandler;
    }

    public static void setDefaultUncaughtExceptionHandler(UncaughtExceptionHandler eh) {
        defaultHandler = eh;
    }

    public UncaughtExceptionHandler getUncaughtExceptionHandler() {
        return handler;
    }

    public void setUncaughtExceptionHandler(UncaughtExceptionHandler eh) {
        handler = eh;
    }

    /**
     * Called by the VM on this thread when run() (or main) ends with e:
     * the thread's handler, else its group's (by default: the default
     * handler, else the message the Java platform prints).
     */
    final void dispatchUncaughtException(Throwable e) {
        UncaughtExceptionHandler h = handler;
        if (h == null) {
            // The group passes it up to "system", which asks the default
            // handler and else prints the platform's message.
            h = group;
        }
        h.uncaughtException(this, e);
    }
}
