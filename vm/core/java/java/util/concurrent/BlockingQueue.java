package java.util.concurrent;

import java.util.Collection;
import java.util.Queue;

/** A queue whose take waits for an element and whose put waits for room. */
public interface BlockingQueue<E> extends Queue<E> {
    void put(E e) throws InterruptedException;

    boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException;

    E take() throws InterruptedException;

    E poll(long timeout, TimeUnit unit) throws InterruptedException;

    int remainingCapacity();

    int drainTo(Collection<? super E> c);

    int drainTo(Collection<? super E> c, int maxElements);
}
