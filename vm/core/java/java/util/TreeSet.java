package java.util;

/** A sorted set backed by a TreeMap; headSet, tailSet and subSet are copies. */
public class TreeSet<E> extends AbstractSet<E> implements SortedSet<E>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object PRESENT = new Object();

    private transient TreeMap<E, Object> m;

    private TreeSet(TreeMap<E, Object> m) {
        this.m = m;
    }

    public TreeSet() {
        this(new TreeMap<E, Object>());
    }

    public TreeSet(Comparator<? super E> comparator) {
        this(new TreeMap<E, Object>(comparator));
    }

    public TreeSet(Collection<? extends E> c) {
        this();
        addAll(c);
    }

    public TreeSet(SortedSet<E> s) {
        this(s.comparator());
        addAll(s);
    }

    public Iterator<E> iterator() {
        return m.keyIterator(false);
    }

    public Iterator<E> descendingIterator() {
        return m.keyIterator(true);
    }

    public int size() {
        return m.size();
    }

    public boolean isEmpty() {
        return m.isEmpty();
    }

    public boolean contains(Object o) {
        return m.containsKey(o);
    }

    public boolean add(E e) {
        return m.put(e, PRESENT) == null;
    }

    public boolean remove(Object o) {
        return m.remove(o) == PRESENT;
    }

    public void clear() {
        m.clear();
    }

    public Comparator<? super E> comparator() {
        return m.comparator();
    }

    public E first() {
        return m.firstKey();
    }

    public E last() {
        return m.lastKey();
    }

    public E floor(E e) {
        return m.floorKey(e);
    }

    public E ceiling(E e) {
        return m.ceilingKey(e);
    }

    public E higher(E e) {
        return m.higherKey(e);
    }

    public E lower(E e) {
        return m.lowerKey(e);
    }

    public E pollFirst() {
        Map.Entry<E, ?> e = m.pollFirstEntry();
        return e == null ? null : e.getKey();
    }

    public E pollLast() {
        Map.Entry<E, ?> e = m.pollLastEntry();
        return e == null ? null : e.getKey();
    }

    public SortedSet<E> subSet(E fromElement, E toElement) {
        return new TreeSet<E>((TreeMap<E, Object>) m.subMap(fromElement, toElement));
    }

    public SortedSet<E> headSet(E toElement) {
        return new TreeSet<E>((TreeMap<E, Object>) m.headMap(toElement));
    }

    public SortedSet<E> tailSet(E fromElement) {
        return new TreeSet<E>((TreeMap<E, Object>) m.tailMap(fromElement));
    }

    @SuppressWarnings("unchecked")
    public Object clone() {
        try {
            TreeSet<E> c = (TreeSet<E>) super.clone();
            c.m = (TreeMap<E, Object>) m.clone();
            return c;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
