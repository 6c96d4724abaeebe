package java.util;

/**
 * A priority queue in a binary heap array. Iteration and toString follow
 * the heap array, which is laid out the same way as in the Java platform
 * (same sift-up/sift-down rules and initial capacity).
 */
public class PriorityQueue<E> extends AbstractQueue<E> implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private Object[] queue;
    private int size;
    private final Comparator<? super E> comparator;
    private int modCount;

    public PriorityQueue() {
        this(11, null);
    }

    public PriorityQueue(int initialCapacity) {
        this(initialCapacity, null);
    }

    public PriorityQueue(Comparator<? super E> comparator) {
        this(11, comparator);
    }

    public PriorityQueue(int initialCapacity, Comparator<? super E> comparator) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException();
        }
        this.queue = new Object[initialCapacity];
        this.comparator = comparator;
    }

    @SuppressWarnings("unchecked")
    public PriorityQueue(Collection<? extends E> c) {
        if (c instanceof SortedSet) {
            comparator = (Comparator<? super E>) ((SortedSet<? extends E>) c).comparator();
        } else if (c instanceof PriorityQueue) {
            comparator = (Comparator<? super E>) ((PriorityQueue<? extends E>) c).comparator();
        } else {
            comparator = null;
        }
        Object[] a = c.toArray();
        for (int i = 0; i < a.length; i++) {
            if (a[i] == null) {
                throw new NullPointerException();
            }
        }
        queue = a.length == 0 ? new Object[1] : a;
        size = a.length;
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i, queue[i]);
        }
    }

    @SuppressWarnings("unchecked")
    private int cmp(Object a, Object b) {
        if (comparator != null) {
            return comparator.compare((E) a, (E) b);
        }
        return ((Comparable<Object>) a).compareTo(b);
    }

    private void siftUp(int k, Object x) {
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            Object p = queue[parent];
            if (cmp(x, p) >= 0) {
                break;
            }
            queue[k] = p;
            k = parent;
        }
        queue[k] = x;
    }

    private void siftDown(int k, Object x) {
        int half = size >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            Object c = queue[child];
            int right = child + 1;
            if (right < size && cmp(c, queue[right]) > 0) {
                child = right;
                c = queue[child];
            }
            if (cmp(x, c) <= 0) {
                break;
            }
            queue[k] = c;
            k = child;
        }
        queue[k] = x;
    }

    public boolean add(E e) {
        return offer(e);
    }

    public boolean offer(E e) {
        if (e == null) {
            throw new NullPointerException();
        }
        modCount++;
        if (size >= queue.length) {
            int n = queue.length < 64 ? queue.length * 2 + 2 : queue.length + (queue.length >> 1);
            queue = Arrays.copyOf(queue, n);
        }
        if (size == 0) {
            queue[0] = e;
            // The first element is still compared with itself, to reject
            // elements that are not Comparable, as Java does.
            cmp(e, e);
        } else {
            siftUp(size, e);
        }
        size++;
        return true;
    }

    @SuppressWarnings("unchecked")
    public E peek() {
        return size == 0 ? null : (E) queue[0];
    }

    @SuppressWarnings("unchecked")
    public E poll() {
        if (size == 0) {
            return null;
        }
        int s = --size;
        modCount++;
        E result = (E) queue[0];
        Object x = queue[s];
        queue[s] = null;
        if (s != 0) {
            siftDown(0, x);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    E removeAt(int i) {
        modCount++;
        int s = --size;
        if (s == i) {
            queue[i] = null;
            return null;
        }
        Object moved = queue[s];
        queue[s] = null;
        siftDown(i, moved);
        if (queue[i] == moved) {
            siftUp(i, moved);
            if (queue[i] != moved) {
                return (E) moved;
            }
        }
        return null;
    }

    public boolean remove(Object o) {
        if (o != null) {
            for (int i = 0; i < size; i++) {
                if (o.equals(queue[i])) {
                    removeAt(i);
                    return true;
                }
            }
        }
        return false;
    }

    public boolean contains(Object o) {
        if (o != null) {
            for (int i = 0; i < size; i++) {
                if (o.equals(queue[i])) {
                    return true;
                }
            }
        }
        return false;
    }

    public int size() {
        return size;
    }

    public void clear() {
        modCount++;
        for (int i = 0; i < size; i++) {
            queue[i] = null;
        }
        size = 0;
    }

    public Object[] toArray() {
        return Arrays.copyOf(queue, size);
    }

    public Comparator<? super E> comparator() {
        return comparator;
    }

    public Iterator<E> iterator() {
        return new Iterator<E>() {
            private int cursor;
            private int lastRet = -1;
            private int expectedModCount = modCount;
            // Elements moved before the cursor by a removal, still to be returned.
            private ArrayDeque<E> forgotten;
            private E lastForgotten;

            public boolean hasNext() {
                return cursor < size || (forgotten != null && !forgotten.isEmpty());
            }

            @SuppressWarnings("unchecked")
            public E next() {
                if (expectedModCount != modCount) {
                    throw new ConcurrentModificationException();
                }
                if (cursor < size) {
                    lastRet = cursor++;
                    return (E) queue[lastRet];
                }
                if (forgotten != null) {
                    lastRet = -1;
                    lastForgotten = forgotten.poll();
                    if (lastForgotten != null) {
                        return lastForgotten;
                    }
                }
                throw new NoSuchElementException();
            }

            public void remove() {
                if (expectedModCount != modCount) {
                    throw new ConcurrentModificationException();
                }
                if (lastRet != -1) {
                    E moved = removeAt(lastRet);
                    lastRet = -1;
                    if (moved == null) {
                        cursor--;
                    } else {
                        if (forgotten == null) {
                            forgotten = new ArrayDeque<E>();
                        }
                        forgotten.add(moved);
                    }
                } else if (lastForgotten != null) {
                    for (int i = 0; i < size; i++) {
                        if (queue[i] == lastForgotten) {
                            removeAt(i);
                            break;
                        }
                    }
                    lastForgotten = null;
                } else {
                    throw new IllegalStateException();
                }
                expectedModCount = modCount;
            }
        };
    }
}
