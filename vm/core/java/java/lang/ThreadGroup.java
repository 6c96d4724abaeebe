package java.lang;

/**
 * A named group of threads. As on Android, the VM's first thread belongs to
 * "main", whose parent is "system"; a new thread joins its creator's group
 * unless given one. Membership is read from the live threads (the VM's
 * list), so a group never holds a thread that has ended.
 */
public class ThreadGroup implements Thread.UncaughtExceptionHandler {
    static final ThreadGroup systemThreadGroup = new ThreadGroup();
    static final ThreadGroup mainThreadGroup = new ThreadGroup(systemThreadGroup, "main");

    private final String name;
    private final ThreadGroup parent;
    private int maxPriority = Thread.MAX_PRIORITY;
    private boolean daemon;

    private ThreadGroup() {
        this.name = "system";
        this.parent = null;
    }

    public ThreadGroup(String name) {
        this(Thread.currentThread().getThreadGroup(), name);
    }

    public ThreadGroup(ThreadGroup parent, String name) {
        if (parent == null) {
            throw new NullPointerException("parent == null");
        }
        this.name = name;
        this.parent = parent;
        this.maxPriority = parent.maxPriority;
        this.daemon = parent.daemon;
    }

    public final String getName() {
        return name;
    }

    public final ThreadGroup getParent() {
        return parent;
    }

    public final int getMaxPriority() {
        return maxPriority;
    }

    public final void setMaxPriority(int pri) {
        if (pri < Thread.MIN_PRIORITY || pri > Thread.MAX_PRIORITY) {
            return;
        }
        maxPriority = parent != null && pri > parent.maxPriority ? parent.maxPriority : pri;
    }

    public final boolean isDaemon() {
        return daemon;
    }

    public final void setDaemon(boolean daemon) {
        this.daemon = daemon;
    }

    /** Reports whether this group is g or one of g's ancestors. */
    public final boolean parentOf(ThreadGroup g) {
        for (; g != null; g = g.parent) {
            if (g == this) {
                return true;
            }
        }
        return false;
    }

    /** Estimates the live threads in this group and its subgroups. */
    public int activeCount() {
        int n = 0;
        Thread[] all = Thread.getThreads0();
        for (int i = 0; i < all.length; i++) {
            if (parentOf(all[i].getThreadGroup())) {
                n++;
            }
        }
        return n;
    }

    public int enumerate(Thread[] list) {
        return enumerate(list, true);
    }

    /** Copies the live threads of this group (and subgroups if recurse) into list. */
    public int enumerate(Thread[] list, boolean recurse) {
        int n = 0;
        Thread[] all = Thread.getThreads0();
        for (int i = 0; i < all.length && n < list.length; i++) {
            ThreadGroup g = all[i].getThreadGroup();
            if (g == this || (recurse && parentOf(g))) {
                list[n++] = all[i];
            }
        }
        return n;
    }

    public void uncaughtException(Thread t, Throwable e) {
        if (parent != null) {
            parent.uncaughtException(t, e);
            return;
        }
        Thread.UncaughtExceptionHandler h = Thread.getDefaultUncaughtExceptionHandler();
        if (h != null) {
            h.uncaughtException(t, e);
            return;
        }
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
    }

    public String toString() {
        return getClass().getName() + "[name=" + name + ",maxpri=" + maxPriority + "]";
    }
}
