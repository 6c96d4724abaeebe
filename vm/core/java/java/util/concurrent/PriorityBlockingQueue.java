package java.util.concurrent;

import java.util.Collection;
import java.util.Comparator;
import java.util.PriorityQueue;

/** An unbounded blocking PriorityQueue (PriorityQueue's order and layout). */
public class PriorityBlockingQueue<E> extends MonitorQueue<E> {
    public PriorityBlockingQueue() {
        super(new PriorityQueue<E>(), Integer.MAX_VALUE);
    }

    public PriorityBlockingQueue(int initialCapacity) {
        super(new PriorityQueue<E>(initialCapacity), Integer.MAX_VALUE);
    }

    public PriorityBlockingQueue(int initialCapacity, Comparator<? super E> comparator) {
        super(new PriorityQueue<E>(initialCapacity, comparator), Integer.MAX_VALUE);
    }

    public PriorityBlockingQueue(Collection<? extends E> c) {
        super(new PriorityQueue<E>(c), Integer.MAX_VALUE);
    }

    public synchronized Comparator<? super E> comparator() {
        return ((PriorityQueue<E>) q).comparator();
    }
}
