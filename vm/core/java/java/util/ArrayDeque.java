package java.util;

/** A deque in a circular array; null elements are not allowed. */
public class ArrayDeque<E> extends AbstractCollection<E> implements Deque<E>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private Object[] elements;
    private int head;
    private int size;
    private int modCount;

    public ArrayDeque() {
        elements = new Object[16];
    }

    public ArrayDeque(int numElements) {
        elements = new Object[Math.max(1, numElements)];
    }

    public ArrayDeque(Collection<? extends E> c) {
        this(c.size());
        addAll(c);
    }

    private int index(int i) {
        int j = head + i;
        return j >= elements.length ? j - elements.length : j;
    }

    private void grow() {
        Object[] a = new Object[elements.length * 2];
        for (int i = 0; i < size; i++) {
            a[i] = elements[index(i)];
        }
        elements = a;
        head = 0;
    }

    @SuppressWarnings("unchecked")
    private E at(int i) {
        return (E) elements[index(i)];
    }

    public void addFirst(E e) {
        if (e == null) {
            throw new NullPointerException();
        }
        if (size == elements.length) {
            grow();
        }
        head = head == 0 ? elements.length - 1 : head - 1;
        elements[head] = e;
        size++;
        modCount++;
    }

    public void addLast(E e) {
        if (e == null) {
            throw new NullPointerException();
        }
        if (size == elements.length) {
            grow();
        }
        elements[index(size)] = e;
        size++;
        modCount++;
    }

    public boolean offerFirst(E e) {
        addFirst(e);
        return true;
    }

    public boolean offerLast(E e) {
        addLast(e);
        return true;
    }

    public E removeFirst() {
        E e = pollFirst();
        if (e == null) {
            throw new NoSuchElementException();
        }
        return e;
    }

    public E removeLast() {
        E e = pollLast();
        if (e == null) {
            throw new NoSuchElementException();
        }
        return e;
    }

    public E pollFirst() {
        if (size == 0) {
            return null;
        }
        E e = at(0);
        elements[head] = null;
        head = index(1);
        size--;
        modCount++;
        return e;
    }

    public E pollLast() {
        if (size == 0) {
            return null;
        }
        int i = index(size - 1);
        @SuppressWarnings("unchecked")
        E e = (E) elements[i];
        elements[i] = null;
        size--;
        modCount++;
        return e;
    }

    public E getFirst() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return at(0);
    }

    public E getLast() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return at(size - 1);
    }

    public E peekFirst() {
        return size == 0 ? null : at(0);
    }

    public E peekLast() {
        return size == 0 ? null : at(size - 1);
    }

    public boolean removeFirstOccurrence(Object o) {
        if (o != null) {
            for (int i = 0; i < size; i++) {
                if (o.equals(at(i))) {
                    delete(i);
                    return true;
                }
            }
        }
        return false;
    }

    public boolean removeLastOccurrence(Object o) {
        if (o != null) {
            for (int i = size - 1; i >= 0; i--) {
                if (o.equals(at(i))) {
                    delete(i);
                    return true;
                }
            }
        }
        return false;
    }

    // Removes the i-th element by shifting the later ones down.
    private void delete(int i) {
        for (int j = i; j < size - 1; j++) {
            elements[index(j)] = elements[index(j + 1)];
        }
        elements[index(size - 1)] = null;
        size--;
        modCount++;
    }

    public boolean add(E e) {
        addLast(e);
        return true;
    }

    public boolean offer(E e) {
        return offerLast(e);
    }

    public E remove() {
        return removeFirst();
    }

    public E poll() {
        return pollFirst();
    }

    public E element() {
        return getFirst();
    }

    public E peek() {
        return peekFirst();
    }

    public void push(E e) {
        addFirst(e);
    }

    public E pop() {
        return removeFirst();
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean contains(Object o) {
        if (o != null) {
            for (int i = 0; i < size; i++) {
                if (o.equals(at(i))) {
                    return true;
                }
            }
        }
        return false;
    }

    public boolean remove(Object o) {
        return removeFirstOccurrence(o);
    }

    public void clear() {
        for (int i = 0; i < size; i++) {
            elements[index(i)] = null;
        }
        head = 0;
        size = 0;
        modCount++;
    }

    public Object[] toArray() {
        Object[] a = new Object[size];
        for (int i = 0; i < size; i++) {
            a[i] = at(i);
        }
        return a;
    }

    public Iterator<E> iterator() {
        return new Itr(false);
    }

    public Iterator<E> descendingIterator() {
        return new Itr(true);
    }

    private class Itr implements Iterator<E> {
        private final boolean descending;
        private int next;
        private int lastRet = -1;
        private int expectedModCount = modCount;

        Itr(boolean descending) {
            this.descending = descending;
            this.next = descending ? size - 1 : 0;
        }

        public boolean hasNext() {
            return descending ? next >= 0 : next < size;
        }

        public E next() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            lastRet = next;
            next += descending ? -1 : 1;
            return at(lastRet);
        }

        public void remove() {
            if (lastRet < 0) {
                throw new IllegalStateException();
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            delete(lastRet);
            if (!descending) {
                next = lastRet;
            }
            lastRet = -1;
            expectedModCount = modCount;
        }
    }

    @SuppressWarnings("unchecked")
    public ArrayDeque<E> clone() {
        try {
            ArrayDeque<E> c = (ArrayDeque<E>) super.clone();
            c.elements = elements.clone();
            return c;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
