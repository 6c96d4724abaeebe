package java.util;

/** A skeleton List over get(int) and size(), with fail-fast iterators. */
public abstract class AbstractList<E> extends AbstractCollection<E> implements List<E> {
    /** Counts structural changes, so iterators can detect concurrent ones. */
    protected transient int modCount;

    protected AbstractList() {
    }

    public boolean add(E e) {
        add(size(), e);
        return true;
    }

    public abstract E get(int index);

    public E set(int index, E element) {
        throw new UnsupportedOperationException();
    }

    public void add(int index, E element) {
        throw new UnsupportedOperationException();
    }

    public E remove(int index) {
        throw new UnsupportedOperationException();
    }

    public int indexOf(Object o) {
        ListIterator<E> it = listIterator();
        while (it.hasNext()) {
            if (Objects.equals(o, it.next())) {
                return it.previousIndex();
            }
        }
        return -1;
    }

    public int lastIndexOf(Object o) {
        ListIterator<E> it = listIterator(size());
        while (it.hasPrevious()) {
            if (Objects.equals(o, it.previous())) {
                return it.nextIndex();
            }
        }
        return -1;
    }

    public void clear() {
        removeRange(0, size());
    }

    protected void removeRange(int fromIndex, int toIndex) {
        ListIterator<E> it = listIterator(fromIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            it.next();
            it.remove();
        }
    }

    public boolean addAll(int index, Collection<? extends E> c) {
        checkPositionIndex(index, size());
        boolean changed = false;
        for (E e : c) {
            add(index++, e);
            changed = true;
        }
        return changed;
    }

    public Iterator<E> iterator() {
        return new Itr(0);
    }

    public ListIterator<E> listIterator() {
        return listIterator(0);
    }

    public ListIterator<E> listIterator(int index) {
        checkPositionIndex(index, size());
        return new Itr(index);
    }

    static void checkPositionIndex(int index, int size) {
        if (index < 0 || index > size) {
            throw new IndexOutOfBoundsException("Index: " + index + ", Size: " + size);
        }
    }

    static void checkElementIndex(int index, int size) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("Index: " + index + ", Size: " + size);
        }
    }

    private class Itr implements ListIterator<E> {
        int cursor;
        int lastRet = -1;
        int expectedModCount = modCount;

        Itr(int index) {
            cursor = index;
        }

        final void checkForComodification() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
        }

        public boolean hasNext() {
            return cursor != size();
        }

        public E next() {
            checkForComodification();
            int i = cursor;
            if (i >= size()) {
                throw new NoSuchElementException();
            }
            E e = get(i);
            lastRet = i;
            cursor = i + 1;
            return e;
        }

        public boolean hasPrevious() {
            return cursor != 0;
        }

        public E previous() {
            checkForComodification();
            int i = cursor - 1;
            if (i < 0) {
                throw new NoSuchElementException();
            }
            E e = get(i);
            lastRet = i;
            cursor = i;
            return e;
        }

        public int nextIndex() {
            return cursor;
        }

        public int previousIndex() {
            return cursor - 1;
        }

        public void remove() {
            if (lastRet < 0) {
                throw new IllegalStateException();
            }
            checkForComodification();
            AbstractList.this.remove(lastRet);
            if (lastRet < cursor) {
                cursor--;
            }
            lastRet = -1;
            expectedModCount = modCount;
        }

        public void set(E e) {
            if (lastRet < 0) {
                throw new IllegalStateException();
            }
            checkForComodification();
            AbstractList.this.set(lastRet, e);
            expectedModCount = modCount;
        }

        public void add(E e) {
            checkForComodification();
            AbstractList.this.add(cursor++, e);
            lastRet = -1;
            expectedModCount = modCount;
        }
    }

    public List<E> subList(int fromIndex, int toIndex) {
        if (fromIndex < 0) {
            throw new IndexOutOfBoundsException("fromIndex = " + fromIndex);
        }
        if (toIndex > size()) {
            throw new IndexOutOfBoundsException("toIndex = " + toIndex);
        }
        if (fromIndex > toIndex) {
            throw new IllegalArgumentException("fromIndex(" + fromIndex + ") > toIndex(" + toIndex + ")");
        }
        return new SubList<E>(this, fromIndex, toIndex);
    }

    /** A view of a range of a list; changes go through to the list. */
    private static class SubList<E> extends AbstractList<E> implements RandomAccess {
        private final AbstractList<E> parent;
        private final int offset;
        private int size;
        private int expectedModCount;

        SubList(AbstractList<E> parent, int from, int to) {
            this.parent = parent;
            this.offset = from;
            this.size = to - from;
            this.expectedModCount = parent.modCount;
        }

        private void check() {
            if (parent.modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
        }

        public E get(int index) {
            checkElementIndex(index, size);
            check();
            return parent.get(offset + index);
        }

        public E set(int index, E e) {
            checkElementIndex(index, size);
            check();
            return parent.set(offset + index, e);
        }

        public int size() {
            check();
            return size;
        }

        public void add(int index, E e) {
            checkPositionIndex(index, size);
            check();
            parent.add(offset + index, e);
            expectedModCount = parent.modCount;
            size++;
            modCount++;
        }

        public E remove(int index) {
            checkElementIndex(index, size);
            check();
            E e = parent.remove(offset + index);
            expectedModCount = parent.modCount;
            size--;
            modCount++;
            return e;
        }

        protected void removeRange(int from, int to) {
            check();
            parent.removeRange(offset + from, offset + to);
            expectedModCount = parent.modCount;
            size -= to - from;
            modCount++;
        }
    }

    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof List)) {
            return false;
        }
        Iterator<E> a = iterator();
        Iterator<?> b = ((List<?>) o).iterator();
        while (a.hasNext() && b.hasNext()) {
            if (!Objects.equals(a.next(), b.next())) {
                return false;
            }
        }
        return !(a.hasNext() || b.hasNext());
    }

    public int hashCode() {
        int h = 1;
        for (Iterator<E> it = iterator(); it.hasNext();) {
            E e = it.next();
            h = 31 * h + (e == null ? 0 : e.hashCode());
        }
        return h;
    }
}
