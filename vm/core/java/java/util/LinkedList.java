package java.util;

/** A doubly-linked list, usable as a List or a Deque. */
public class LinkedList<E> extends AbstractSequentialList<E> implements List<E>, Deque<E>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final class Node<E> {
        E item;
        Node<E> prev;
        Node<E> next;

        Node(Node<E> prev, E item, Node<E> next) {
            this.prev = prev;
            this.item = item;
            this.next = next;
        }
    }

    transient int size;
    transient Node<E> first;
    transient Node<E> last;

    public LinkedList() {
    }

    public LinkedList(Collection<? extends E> c) {
        addAll(c);
    }

    private void linkBefore(E e, Node<E> succ) {
        Node<E> pred = succ == null ? last : succ.prev;
        Node<E> n = new Node<E>(pred, e, succ);
        if (pred == null) {
            first = n;
        } else {
            pred.next = n;
        }
        if (succ == null) {
            last = n;
        } else {
            succ.prev = n;
        }
        size++;
        modCount++;
    }

    private E unlink(Node<E> x) {
        E e = x.item;
        if (x.prev == null) {
            first = x.next;
        } else {
            x.prev.next = x.next;
        }
        if (x.next == null) {
            last = x.prev;
        } else {
            x.next.prev = x.prev;
        }
        x.item = null;
        x.prev = null;
        x.next = null;
        size--;
        modCount++;
        return e;
    }

    private Node<E> node(int index) {
        if (index < (size >> 1)) {
            Node<E> x = first;
            for (int i = 0; i < index; i++) {
                x = x.next;
            }
            return x;
        }
        Node<E> x = last;
        for (int i = size - 1; i > index; i--) {
            x = x.prev;
        }
        return x;
    }

    public int size() {
        return size;
    }

    public boolean add(E e) {
        linkBefore(e, null);
        return true;
    }

    public E get(int index) {
        checkElementIndex(index, size);
        return node(index).item;
    }

    public E set(int index, E element) {
        checkElementIndex(index, size);
        Node<E> x = node(index);
        E old = x.item;
        x.item = element;
        return old;
    }

    public void add(int index, E element) {
        checkPositionIndex(index, size);
        linkBefore(element, index == size ? null : node(index));
    }

    public E remove(int index) {
        checkElementIndex(index, size);
        return unlink(node(index));
    }

    public boolean remove(Object o) {
        for (Node<E> x = first; x != null; x = x.next) {
            if (Objects.equals(o, x.item)) {
                unlink(x);
                return true;
            }
        }
        return false;
    }

    public void clear() {
        for (Node<E> x = first; x != null;) {
            Node<E> next = x.next;
            x.item = null;
            x.prev = null;
            x.next = null;
            x = next;
        }
        first = null;
        last = null;
        size = 0;
        modCount++;
    }

    public int indexOf(Object o) {
        int i = 0;
        for (Node<E> x = first; x != null; x = x.next, i++) {
            if (Objects.equals(o, x.item)) {
                return i;
            }
        }
        return -1;
    }

    public int lastIndexOf(Object o) {
        int i = size - 1;
        for (Node<E> x = last; x != null; x = x.prev, i--) {
            if (Objects.equals(o, x.item)) {
                return i;
            }
        }
        return -1;
    }

    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }

    public Object[] toArray() {
        Object[] a = new Object[size];
        int i = 0;
        for (Node<E> x = first; x != null; x = x.next) {
            a[i++] = x.item;
        }
        return a;
    }

    public void addFirst(E e) {
        linkBefore(e, first);
    }

    public void addLast(E e) {
        linkBefore(e, null);
    }

    public boolean offerFirst(E e) {
        addFirst(e);
        return true;
    }

    public boolean offerLast(E e) {
        addLast(e);
        return true;
    }

    public boolean offer(E e) {
        return add(e);
    }

    public E getFirst() {
        if (first == null) {
            throw new NoSuchElementException();
        }
        return first.item;
    }

    public E getLast() {
        if (last == null) {
            throw new NoSuchElementException();
        }
        return last.item;
    }

    public E element() {
        return getFirst();
    }

    public E peek() {
        return first == null ? null : first.item;
    }

    public E peekFirst() {
        return peek();
    }

    public E peekLast() {
        return last == null ? null : last.item;
    }

    public E removeFirst() {
        if (first == null) {
            throw new NoSuchElementException();
        }
        return unlink(first);
    }

    public E removeLast() {
        if (last == null) {
            throw new NoSuchElementException();
        }
        return unlink(last);
    }

    public E remove() {
        return removeFirst();
    }

    public E poll() {
        return first == null ? null : unlink(first);
    }

    public E pollFirst() {
        return poll();
    }

    public E pollLast() {
        return last == null ? null : unlink(last);
    }

    public void push(E e) {
        addFirst(e);
    }

    public E pop() {
        return removeFirst();
    }

    public boolean removeFirstOccurrence(Object o) {
        return remove(o);
    }

    public boolean removeLastOccurrence(Object o) {
        for (Node<E> x = last; x != null; x = x.prev) {
            if (Objects.equals(o, x.item)) {
                unlink(x);
                return true;
            }
        }
        return false;
    }

    public ListIterator<E> listIterator(int index) {
        checkPositionIndex(index, size);
        return new ListItr(index);
    }

    private class ListItr implements ListIterator<E> {
        private Node<E> lastReturned;
        private Node<E> next;
        private int nextIndex;
        private int expectedModCount = modCount;

        ListItr(int index) {
            next = index == size ? null : node(index);
            nextIndex = index;
        }

        private void check() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
        }

        public boolean hasNext() {
            return nextIndex < size;
        }

        public E next() {
            check();
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            lastReturned = next;
            next = next.next;
            nextIndex++;
            return lastReturned.item;
        }

        public boolean hasPrevious() {
            return nextIndex > 0;
        }

        public E previous() {
            check();
            if (!hasPrevious()) {
                throw new NoSuchElementException();
            }
            next = next == null ? last : next.prev;
            lastReturned = next;
            nextIndex--;
            return lastReturned.item;
        }

        public int nextIndex() {
            return nextIndex;
        }

        public int previousIndex() {
            return nextIndex - 1;
        }

        public void remove() {
            check();
            if (lastReturned == null) {
                throw new IllegalStateException();
            }
            Node<E> after = lastReturned.next;
            unlink(lastReturned);
            if (next == lastReturned) {
                next = after;
            } else {
                nextIndex--;
            }
            lastReturned = null;
            expectedModCount++;
        }

        public void set(E e) {
            if (lastReturned == null) {
                throw new IllegalStateException();
            }
            check();
            lastReturned.item = e;
        }

        public void add(E e) {
            check();
            lastReturned = null;
            linkBefore(e, next);
            nextIndex++;
            expectedModCount++;
        }
    }

    public Iterator<E> descendingIterator() {
        return new Iterator<E>() {
            private final ListItr it = new ListItr(size());

            public boolean hasNext() {
                return it.hasPrevious();
            }

            public E next() {
                return it.previous();
            }

            public void remove() {
                it.remove();
            }
        };
    }

    @SuppressWarnings("unchecked")
    public Object clone() {
        LinkedList<E> c;
        try {
            c = (LinkedList<E>) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        c.first = null;
        c.last = null;
        c.size = 0;
        c.modCount = 0;
        for (Node<E> x = first; x != null; x = x.next) {
            c.add(x.item);
        }
        return c;
    }
}
