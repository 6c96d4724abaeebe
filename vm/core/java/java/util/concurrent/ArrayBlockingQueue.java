package java.util.concurrent;

import java.util.ArrayDeque;

/** A bounded FIFO blocking queue; fairness is accepted but not enforced. */
public class ArrayBlockingQueue<E> extends MonitorQueue<E> {
    public ArrayBlockingQueue(int capacity) {
        this(capacity, false);
    }

    public ArrayBlockingQueue(int capacity, boolean fair) {
        super(new ArrayDeque<E>(), capacity);
    }
}
