package java.util.concurrent;

import java.util.ArrayDeque;
import java.util.Collection;

/** A FIFO blocking queue, bounded if given a capacity. */
public class LinkedBlockingQueue<E> extends MonitorQueue<E> {
    public LinkedBlockingQueue() {
        this(Integer.MAX_VALUE);
    }

    public LinkedBlockingQueue(int capacity) {
        super(new ArrayDeque<E>(), capacity);
    }

    public LinkedBlockingQueue(Collection<? extends E> c) {
        this(Integer.MAX_VALUE);
        addAll(c);
    }
}
