package java.lang.ref;

/**
 * Finalization, as Android does it: the VM calls add for every object
 * whose class overrides Object.finalize when it allocates one. A
 * collection that finds such an object otherwise unreachable keeps it
 * (and what it reaches) alive and hands its reference to the queue; the
 * finalizer daemon then runs finalize() once and drops the reference, so
 * a later collection can free the object.
 */
public final class FinalizerReference<T> extends Reference<T> {
    private static final ReferenceQueue<Object> queue = new ReferenceQueue<Object>();
    private static final Object lock = new Object();
    // Every live FinalizerReference is on this list, which keeps it
    // reachable until its referent has been finalized.
    private static FinalizerReference<?> head;
    private static long finished; // finalize() calls completed (or thrown)

    private FinalizerReference<?> prev, next;

    static {
        ReferenceQueue.startDaemon("FinalizerDaemon", new Daemon());
    }

    private FinalizerReference(T referent, ReferenceQueue<? super T> q) {
        super(referent, q);
    }

    /** Registers a newly allocated finalizable object (called by the VM). */
    static void add(Object referent) {
        FinalizerReference<Object> r = new FinalizerReference<Object>(referent, queue);
        synchronized (lock) {
            r.next = head;
            if (head != null) {
                head.prev = r;
            }
            head = r;
        }
    }

    private static void remove(FinalizerReference<?> r) {
        synchronized (lock) {
            if (r.next != null) {
                r.next.prev = r.prev;
            }
            if (r.prev != null) {
                r.prev.next = r.next;
            } else if (head == r) {
                head = r.next;
            }
            r.prev = r.next = null;
        }
    }

    /** Runs o.finalize(), ignoring what it throws, as the Java platform does. */
    private static native void invokeFinalize(Object o);

    /** How many finalizer references collections have handed to the queue so far. */
    private static native long enqueuedCount();

    /**
     * System.runFinalization: waits (at most a second, as a finalizer may
     * never return) until every object a collection has found finalizable
     * so far has been finalized.
     */
    public static void runFinalization() {
        long target = enqueuedCount();
        long deadline = System.currentTimeMillis() + 1000;
        synchronized (lock) {
            while (finished < target) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return;
                }
                try {
                    lock.wait(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static final class Daemon implements Runnable {
        public void run() {
            while (true) {
                FinalizerReference<?> r;
                try {
                    r = (FinalizerReference<?>) queue.remove();
                } catch (InterruptedException e) {
                    continue;
                }
                Object o = r.get();
                r.clear();
                remove(r);
                if (o != null) {
                    invokeFinalize(o);
                }
                o = null;
                synchronized (lock) {
                    finished++;
                    lock.notifyAll();
                }
            }
        }
    }
}
