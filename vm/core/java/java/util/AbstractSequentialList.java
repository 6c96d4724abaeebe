package java.util;

/** A skeleton List over listIterator(int), for linked structures. */
public abstract class AbstractSequentialList<E> extends AbstractList<E> {
    protected AbstractSequentialList() {
    }

    public E get(int index) {
        checkElementIndex(index, size());
        return listIterator(index).next();
    }

    public E set(int index, E element) {
        checkElementIndex(index, size());
        ListIterator<E> it = listIterator(index);
        E old = it.next();
        it.set(element);
        return old;
    }

    public void add(int index, E element) {
        checkPositionIndex(index, size());
        listIterator(index).add(element);
    }

    public E remove(int index) {
        checkElementIndex(index, size());
        ListIterator<E> it = listIterator(index);
        E old = it.next();
        it.remove();
        return old;
    }

    public boolean addAll(int index, Collection<? extends E> c) {
        checkPositionIndex(index, size());
        ListIterator<E> it = listIterator(index);
        boolean changed = false;
        for (E e : c) {
            it.add(e);
            changed = true;
        }
        return changed;
    }

    public Iterator<E> iterator() {
        return listIterator();
    }

    public abstract ListIterator<E> listIterator(int index);
}
