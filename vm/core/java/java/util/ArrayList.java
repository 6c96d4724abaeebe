package java.util;

/** A resizable array list with fail-fast iterators. */
public class ArrayList<E> extends AbstractList<E> implements List<E>, RandomAccess, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object[] EMPTY = {};

    transient Object[] elementData;
    private int size;

    public ArrayList() {
        elementData = EMPTY;
    }

    public ArrayList(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("Illegal Capacity: " + initialCapacity);
        }
        elementData = new Object[initialCapacity];
    }

    public ArrayList(Collection<? extends E> c) {
        Object[] a = c.toArray();
        elementData = Arrays.copyOf(a, a.length, Object[].class);
        size = a.length;
    }

    public void trimToSize() {
        modCount++;
        if (size < elementData.length) {
            elementData = Arrays.copyOf(elementData, size);
        }
    }

    public void ensureCapacity(int minCapacity) {
        if (minCapacity > elementData.length) {
            modCount++;
            int n = elementData.length + (elementData.length >> 1);
            if (n < minCapacity) {
                n = minCapacity;
            }
            if (n < 10) {
                n = 10;
            }
            elementData = Arrays.copyOf(elementData, n);
        }
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }

    public int indexOf(Object o) {
        for (int i = 0; i < size; i++) {
            if (Objects.equals(o, elementData[i])) {
                return i;
            }
        }
        return -1;
    }

    public int lastIndexOf(Object o) {
        for (int i = size - 1; i >= 0; i--) {
            if (Objects.equals(o, elementData[i])) {
                return i;
            }
        }
        return -1;
    }

    public Object clone() {
        try {
            @SuppressWarnings("unchecked")
            ArrayList<E> v = (ArrayList<E>) super.clone();
            v.elementData = Arrays.copyOf(elementData, size);
            v.modCount = 0;
            return v;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }

    public Object[] toArray() {
        return Arrays.copyOf(elementData, size);
    }

    @SuppressWarnings("unchecked")
    public <T> T[] toArray(T[] a) {
        if (a.length < size) {
            a = (T[]) Arrays.newArrayLike(a, size);
        }
        System.arraycopy(elementData, 0, a, 0, size);
        if (a.length > size) {
            a[size] = null;
        }
        return a;
    }

    @SuppressWarnings("unchecked")
    E elementData(int index) {
        return (E) elementData[index];
    }

    public E get(int index) {
        checkElementIndex(index, size);
        return elementData(index);
    }

    public E set(int index, E element) {
        checkElementIndex(index, size);
        E old = elementData(index);
        elementData[index] = element;
        return old;
    }

    public boolean add(E e) {
        ensureCapacity(size + 1);
        modCount++;
        elementData[size++] = e;
        return true;
    }

    public void add(int index, E element) {
        checkPositionIndex(index, size);
        ensureCapacity(size + 1);
        modCount++;
        System.arraycopy(elementData, index, elementData, index + 1, size - index);
        elementData[index] = element;
        size++;
    }

    public E remove(int index) {
        checkElementIndex(index, size);
        modCount++;
        E old = elementData(index);
        int moved = size - index - 1;
        if (moved > 0) {
            System.arraycopy(elementData, index + 1, elementData, index, moved);
        }
        elementData[--size] = null;
        return old;
    }

    public boolean remove(Object o) {
        int i = indexOf(o);
        if (i < 0) {
            return false;
        }
        remove(i);
        return true;
    }

    public void clear() {
        modCount++;
        for (int i = 0; i < size; i++) {
            elementData[i] = null;
        }
        size = 0;
    }

    public boolean addAll(Collection<? extends E> c) {
        Object[] a = c.toArray();
        ensureCapacity(size + a.length);
        modCount++;
        System.arraycopy(a, 0, elementData, size, a.length);
        size += a.length;
        return a.length != 0;
    }

    public boolean addAll(int index, Collection<? extends E> c) {
        checkPositionIndex(index, size);
        Object[] a = c.toArray();
        ensureCapacity(size + a.length);
        modCount++;
        System.arraycopy(elementData, index, elementData, index + a.length, size - index);
        System.arraycopy(a, 0, elementData, index, a.length);
        size += a.length;
        return a.length != 0;
    }

    protected void removeRange(int fromIndex, int toIndex) {
        if (fromIndex > toIndex) {
            throw new IndexOutOfBoundsException("From Index: " + fromIndex + " > To Index: " + toIndex);
        }
        modCount++;
        System.arraycopy(elementData, toIndex, elementData, fromIndex, size - toIndex);
        int newSize = size - (toIndex - fromIndex);
        for (int i = newSize; i < size; i++) {
            elementData[i] = null;
        }
        size = newSize;
    }

    public boolean removeAll(Collection<?> c) {
        return filter(c, false);
    }

    public boolean retainAll(Collection<?> c) {
        return filter(c, true);
    }

    private boolean filter(Collection<?> c, boolean keep) {
        Objects.requireNonNull(c);
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (c.contains(elementData[r]) == keep) {
                elementData[w++] = elementData[r];
            }
        }
        if (w == size) {
            return false;
        }
        for (int i = w; i < size; i++) {
            elementData[i] = null;
        }
        modCount++;
        size = w;
        return true;
    }

    @SuppressWarnings("unchecked")
    public void sort(Comparator<? super E> c) {
        int expected = modCount;
        Arrays.sort((E[]) elementData, 0, size, c);
        if (modCount != expected) {
            throw new ConcurrentModificationException();
        }
        modCount++;
    }

    public Iterator<E> iterator() {
        return new Itr();
    }

    /** The iterator: fail-fast through modCount. */
    private class Itr implements Iterator<E> {
        int cursor;
        int lastRet = -1;
        int expectedModCount = modCount;

        public boolean hasNext() {
            return cursor != size;
        }

        public E next() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            int i = cursor;
            if (i >= size) {
                throw new NoSuchElementException();
            }
            cursor = i + 1;
            lastRet = i;
            return elementData(i);
        }

        public void remove() {
            if (lastRet < 0) {
                throw new IllegalStateException();
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            ArrayList.this.remove(lastRet);
            cursor = lastRet;
            lastRet = -1;
            expectedModCount = modCount;
        }
    }
}
