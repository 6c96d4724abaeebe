package java.util;

/** An ordered collection with indexed access. */
public interface List<E> extends Collection<E> {
    E get(int index);

    E set(int index, E element);

    void add(int index, E element);

    E remove(int index);

    int indexOf(Object o);

    int lastIndexOf(Object o);

    boolean addAll(int index, Collection<? extends E> c);

    ListIterator<E> listIterator();

    ListIterator<E> listIterator(int index);

    List<E> subList(int fromIndex, int toIndex);

    /** Sorts stably, like Collections.sort. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    default void sort(Comparator<? super E> c) {
        Object[] a = this.toArray();
        Arrays.sort(a, (Comparator) c);
        ListIterator<E> it = this.listIterator();
        for (int i = 0; i < a.length; i++) {
            it.next();
            it.set((E) a[i]);
        }
    }
}
