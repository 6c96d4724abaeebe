package java.util.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.Queue;

/**
 * The blocking queues of this library: an ordinary queue guarded by one
 * monitor, with a capacity; take and put wait on the monitor. Iterators
 * walk a snapshot.
 */
abstract class MonitorQueue<E> extends AbstractQueue<E> implements BlockingQueue<E>, java.io.Serializable {
    final Queue<E> q;
    final int capacity;

    MonitorQueue(Queue<E> q, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException();
        }
        this.q = q;
        this.capacity = capacity;
    }

    public synchronized boolean offer(E e) {
        if (e == null) {
            throw new NullPointerException();
        }
        if (q.size() >= capacity) {
            return false;
        }
        q.offer(e);
        notifyAll();
        return true;
    }

    public synchronized void put(E e) throws InterruptedException {
        if (e == null) {
            throw new NullPointerException();
        }
        while (q.size() >= capacity) {
            wait();
        }
        q.offer(e);
        notifyAll();
    }

    public synchronized boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        if (e == null) {
            throw new NullPointerException();
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (q.size() >= capacity) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(left / 1000000, (int) (left % 1000000));
        }
        q.offer(e);
        notifyAll();
        return true;
    }

    public synchronized E poll() {
        E e = q.poll();
        if (e != null) {
            notifyAll();
        }
        return e;
    }

    public synchronized E take() throws InterruptedException {
        while (q.isEmpty()) {
            wait();
        }
        return poll();
    }

    public synchronized E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (q.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            wait(left / 1000000, (int) (left % 1000000));
        }
        return poll();
    }

    public synchronized E peek() {
        return q.peek();
    }

    public synchronized int size() {
        return q.size();
    }

    public synchronized int remainingCapacity() {
        return capacity == Integer.MAX_VALUE ? Integer.MAX_VALUE : capacity - q.size();
    }

    public synchronized boolean remove(Object o) {
        boolean removed = q.remove(o);
        if (removed) {
            notifyAll();
        }
        return removed;
    }

    public synchronized boolean contains(Object o) {
        return q.contains(o);
    }

    public synchronized void clear() {
        q.clear();
        notifyAll();
    }

    public synchronized Object[] toArray() {
        return q.toArray();
    }

    public synchronized <T> T[] toArray(T[] a) {
        return q.toArray(a);
    }

    public synchronized String toString() {
        return q.toString();
    }

    public int drainTo(Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    public synchronized int drainTo(Collection<? super E> c, int maxElements) {
        if (c == this) {
            throw new IllegalArgumentException();
        }
        int n = 0;
        while (n < maxElements && !q.isEmpty()) {
            c.add(q.poll());
            n++;
        }
        if (n > 0) {
            notifyAll();
        }
        return n;
    }

    public Iterator<E> iterator() {
        final Iterator<E> it = new ArrayList<E>(snapshot()).iterator();
        return new Iterator<E>() {
            private E last;

            public boolean hasNext() {
                return it.hasNext();
            }

            public E next() {
                return last = it.next();
            }

            public void remove() {
                if (last == null) {
                    throw new IllegalStateException();
                }
                removeIdentical(last);
                last = null;
            }
        };
    }

    private synchronized ArrayList<E> snapshot() {
        return new ArrayList<E>(q);
    }

    private synchronized void removeIdentical(Object o) {
        for (Iterator<E> it = q.iterator(); it.hasNext();) {
            if (it.next() == o) {
                it.remove();
                notifyAll();
                return;
            }
        }
    }
}
