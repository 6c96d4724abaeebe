package java.lang.ref;

/**
 * Where the collector's cleared references arrive. A daemon thread,
 * started when the first queue is made, takes them from the VM and
 * enqueues them.
 */
public class ReferenceQueue<T> {
    static {
        startDaemon("ReferenceQueueDaemon", new Daemon());
    }

    /** Starts one of the VM's daemon threads, in the top thread group as ART's are. */
    static void startDaemon(String name, Runnable body) {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        Thread t = new Thread(g, body, name, 0);
        t.setDaemon(true);
        t.start();
    }

    private static final class Daemon implements Runnable {
        public void run() {
            while (true) {
                Reference<?> r = Reference.waitForPending();
                while (r != null) {
                    Reference<?> next = r.pendingNext;
                    r.pendingNext = null;
                    r.enqueue();
                    r = next;
                }
            }
        }
    }

    private Reference<? extends T> head;

    public ReferenceQueue() {
    }

    synchronized boolean enqueue(Reference<?> r) {
        if (r.enqueued) {
            return false;
        }
        r.enqueued = true;
        r.queueNext = head == null ? r : head;
        @SuppressWarnings("unchecked")
        Reference<? extends T> rr = (Reference<? extends T>) r;
        head = rr;
        notifyAll();
        return true;
    }

    public synchronized Reference<? extends T> poll() {
        Reference<? extends T> r = head;
        if (r == null) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Reference<? extends T> next = (Reference<? extends T>) r.queueNext;
        head = next == r ? null : next;
        r.queueNext = null;
        return r;
    }

    public Reference<? extends T> remove() throws InterruptedException {
        return remove(0);
    }

    /** Waits at most timeout milliseconds (0: forever) for a reference. */
    public synchronized Reference<? extends T> remove(long timeout) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0: " + timeout);
        }
        long deadline = System.currentTimeMillis() + timeout;
        while (head == null) {
            if (timeout == 0) {
                wait();
            } else {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return null;
                }
                wait(left);
            }
        }
        return poll();
    }
}
