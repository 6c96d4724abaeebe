package java.lang.ref;

/**
 * A reference the collector treats specially: it does not trace referent.
 * When a collection finds the referent reachable only through weak, soft
 * or phantom references, it clears the referent and, if the reference
 * has a queue, hands it to the queue's daemon, which enqueues it. Soft
 * referents are kept unless an allocation would otherwise fail.
 */
public abstract class Reference<T> {
    // The VM reads and clears referent, and links cleared references
    // through pendingNext (vm/core/README.md).
    volatile T referent;
    final ReferenceQueue<? super T> queue;
    Reference<?> pendingNext;
    // In queue's list: the next reference, or this for the last one;
    // null when not in a queue.
    Reference<?> queueNext;
    boolean enqueued; // ever enqueued: a reference is enqueued at most once

    Reference(T referent) {
        this(referent, null);
    }

    Reference(T referent, ReferenceQueue<? super T> queue) {
        this.referent = referent;
        this.queue = queue;
    }

    public T get() {
        return referent;
    }

    public void clear() {
        referent = null;
    }

    public boolean isEnqueued() {
        if (queue == null) {
            return false;
        }
        synchronized (queue) {
            return queueNext != null;
        }
    }

    public boolean enqueue() {
        return queue != null && queue.enqueue(this);
    }

    /** Keeps o reachable up to this call. */
    public static void reachabilityFence(Object o) {
    }

    /**
     * Blocks until a collection has cleared references that have queues,
     * and returns them linked through pendingNext (the queue daemon's).
     */
    static native Reference<?> waitForPending();
}
