package java.util;

/** Algorithms on collections and wrapper collections. */
public class Collections {
    private Collections() {
    }

    @SuppressWarnings("rawtypes")
    public static final List EMPTY_LIST = new EmptyList<Object>();
    @SuppressWarnings("rawtypes")
    public static final Set EMPTY_SET = new EmptySet<Object>();
    @SuppressWarnings("rawtypes")
    public static final Map EMPTY_MAP = new EmptyMap<Object, Object>();

    public static <T extends Comparable<? super T>> void sort(List<T> list) {
        list.sort(null);
    }

    public static <T> void sort(List<T> list, Comparator<? super T> c) {
        list.sort(c);
    }

    @SuppressWarnings("unchecked")
    public static <T> int binarySearch(List<? extends Comparable<? super T>> list, T key) {
        int lo = 0;
        int hi = list.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = ((Comparable<Object>) list.get(mid)).compareTo(key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    @SuppressWarnings("unchecked")
    public static <T> int binarySearch(List<? extends T> list, T key, Comparator<? super T> c) {
        if (c == null) {
            return binarySearch((List<? extends Comparable<? super T>>) list, key);
        }
        int lo = 0;
        int hi = list.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int r = c.compare(list.get(mid), key);
            if (r < 0) {
                lo = mid + 1;
            } else if (r > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void reverse(List<?> list) {
        List l = list;
        for (int i = 0, j = l.size() - 1; i < j; i++, j--) {
            l.set(i, l.set(j, l.get(i)));
        }
    }

    private static Random shuffleRandom;

    public static void shuffle(List<?> list) {
        Random r;
        synchronized (Collections.class) {
            if (shuffleRandom == null) {
                shuffleRandom = new Random();
            }
            r = shuffleRandom;
        }
        shuffle(list, r);
    }

    /** Swaps each position, from the last down, with a random earlier one, as Java does. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void shuffle(List<?> list, Random rnd) {
        Object[] a = list.toArray();
        for (int i = a.length; i > 1; i--) {
            swap(a, i - 1, rnd.nextInt(i));
        }
        ListIterator it = list.listIterator();
        for (int i = 0; i < a.length; i++) {
            it.next();
            it.set(a[i]);
        }
    }

    // Java's Collections has this private helper too (046-reflect looks it up).
    private static void swap(Object[] a, int i, int j) {
        Object t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void swap(List<?> list, int i, int j) {
        List l = list;
        l.set(i, l.set(j, l.get(i)));
    }

    public static <T> void fill(List<? super T> list, T obj) {
        for (int i = 0, n = list.size(); i < n; i++) {
            list.set(i, obj);
        }
    }

    public static <T> void copy(List<? super T> dest, List<? extends T> src) {
        if (src.size() > dest.size()) {
            throw new IndexOutOfBoundsException("Source does not fit in dest");
        }
        for (int i = 0; i < src.size(); i++) {
            dest.set(i, src.get(i));
        }
    }

    public static void rotate(List<?> list, int distance) {
        int n = list.size();
        if (n == 0) {
            return;
        }
        distance %= n;
        if (distance < 0) {
            distance += n;
        }
        if (distance == 0) {
            return;
        }
        reverse(list.subList(0, n - distance));
        reverse(list.subList(n - distance, n));
        reverse(list);
    }

    @SuppressWarnings("unchecked")
    public static <T extends Object & Comparable<? super T>> T min(Collection<? extends T> coll) {
        Iterator<? extends T> it = coll.iterator();
        T best = it.next();
        while (it.hasNext()) {
            T x = it.next();
            if (((Comparable<Object>) x).compareTo(best) < 0) {
                best = x;
            }
        }
        return best;
    }

    @SuppressWarnings("unchecked")
    public static <T extends Object & Comparable<? super T>> T max(Collection<? extends T> coll) {
        Iterator<? extends T> it = coll.iterator();
        T best = it.next();
        while (it.hasNext()) {
            T x = it.next();
            if (((Comparable<Object>) x).compareTo(best) > 0) {
                best = x;
            }
        }
        return best;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T> T min(Collection<? extends T> coll, Comparator<? super T> comp) {
        if (comp == null) {
            return (T) min((Collection) coll);
        }
        Iterator<? extends T> it = coll.iterator();
        T best = it.next();
        while (it.hasNext()) {
            T x = it.next();
            if (comp.compare(x, best) < 0) {
                best = x;
            }
        }
        return best;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T> T max(Collection<? extends T> coll, Comparator<? super T> comp) {
        if (comp == null) {
            return (T) max((Collection) coll);
        }
        Iterator<? extends T> it = coll.iterator();
        T best = it.next();
        while (it.hasNext()) {
            T x = it.next();
            if (comp.compare(x, best) > 0) {
                best = x;
            }
        }
        return best;
    }

    public static int frequency(Collection<?> c, Object o) {
        int n = 0;
        for (Object e : c) {
            if (Objects.equals(o, e)) {
                n++;
            }
        }
        return n;
    }

    @SafeVarargs
    public static <T> boolean addAll(Collection<? super T> c, T... elements) {
        boolean changed = false;
        for (int i = 0; i < elements.length; i++) {
            if (c.add(elements[i])) {
                changed = true;
            }
        }
        return changed;
    }

    public static boolean disjoint(Collection<?> a, Collection<?> b) {
        for (Object e : a) {
            if (b.contains(e)) {
                return false;
            }
        }
        return true;
    }

    // Orders and comparators.

    /** The natural ordering, for Comparator.naturalOrder. */
    @SuppressWarnings("rawtypes")
    static final class NaturalOrder implements Comparator<Comparable>, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        static final NaturalOrder INSTANCE = new NaturalOrder();

        @SuppressWarnings("unchecked")
        public int compare(Comparable a, Comparable b) {
            return a.compareTo(b);
        }
    }

    private static final class ReverseOrder<T> implements Comparator<T>, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        // null means the reverse of the natural ordering.
        final Comparator<T> cmp;

        ReverseOrder(Comparator<T> cmp) {
            this.cmp = cmp;
        }

        @SuppressWarnings("unchecked")
        public int compare(T a, T b) {
            if (cmp == null) {
                return ((Comparable<Object>) b).compareTo(a);
            }
            return cmp.compare(b, a);
        }

        @SuppressWarnings("unchecked")
        public Comparator<T> reversed() {
            return cmp == null ? (Comparator<T>) (Object) NaturalOrder.INSTANCE : cmp;
        }
    }

    private static final ReverseOrder<Object> REVERSE_NATURAL = new ReverseOrder<Object>(null);

    @SuppressWarnings("unchecked")
    public static <T> Comparator<T> reverseOrder() {
        return (Comparator<T>) REVERSE_NATURAL;
    }

    @SuppressWarnings("unchecked")
    public static <T> Comparator<T> reverseOrder(Comparator<T> cmp) {
        if (cmp == null) {
            return reverseOrder();
        }
        if (cmp instanceof ReverseOrder) {
            Comparator<T> inner = ((ReverseOrder<T>) cmp).cmp;
            if (inner != null) {
                return inner;
            }
        }
        return new ReverseOrder<T>(cmp);
    }

    // Empty and singleton collections.

    private static final class EmptyIterator<E> implements ListIterator<E> {
        static final EmptyIterator<Object> INSTANCE = new EmptyIterator<Object>();

        public boolean hasNext() {
            return false;
        }

        public E next() {
            throw new NoSuchElementException();
        }

        public boolean hasPrevious() {
            return false;
        }

        public E previous() {
            throw new NoSuchElementException();
        }

        public int nextIndex() {
            return 0;
        }

        public int previousIndex() {
            return -1;
        }

        public void remove() {
            throw new IllegalStateException();
        }

        public void set(E e) {
            throw new IllegalStateException();
        }

        public void add(E e) {
            throw new UnsupportedOperationException();
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> Iterator<T> emptyIterator() {
        return (Iterator<T>) EmptyIterator.INSTANCE;
    }

    @SuppressWarnings("unchecked")
    public static <T> ListIterator<T> emptyListIterator() {
        return (ListIterator<T>) EmptyIterator.INSTANCE;
    }

    private static final class EmptyList<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        public int size() {
            return 0;
        }

        public E get(int index) {
            throw new IndexOutOfBoundsException("Index: " + index);
        }

        public Iterator<E> iterator() {
            return emptyIterator();
        }
    }

    private static final class EmptySet<E> extends AbstractSet<E> implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        public int size() {
            return 0;
        }

        public Iterator<E> iterator() {
            return emptyIterator();
        }
    }

    private static final class EmptyMap<K, V> extends AbstractMap<K, V> implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @SuppressWarnings("unchecked")
        public Set<Map.Entry<K, V>> entrySet() {
            return (Set<Map.Entry<K, V>>) EMPTY_SET;
        }
    }

    @SuppressWarnings("unchecked")
    public static final <T> List<T> emptyList() {
        return (List<T>) EMPTY_LIST;
    }

    @SuppressWarnings("unchecked")
    public static final <T> Set<T> emptySet() {
        return (Set<T>) EMPTY_SET;
    }

    @SuppressWarnings("unchecked")
    public static final <K, V> Map<K, V> emptyMap() {
        return (Map<K, V>) EMPTY_MAP;
    }

    public static <T> List<T> singletonList(T o) {
        return new SingletonList<T>(o);
    }

    private static final class SingletonList<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final E element;

        SingletonList(E e) {
            element = e;
        }

        public int size() {
            return 1;
        }

        public E get(int index) {
            if (index != 0) {
                throw new IndexOutOfBoundsException("Index: " + index + ", Size: 1");
            }
            return element;
        }
    }

    public static <T> Set<T> singleton(T o) {
        return new SingletonSet<T>(o);
    }

    private static final class SingletonSet<E> extends AbstractSet<E> implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final E element;

        SingletonSet(E e) {
            element = e;
        }

        public int size() {
            return 1;
        }

        public boolean contains(Object o) {
            return Objects.equals(o, element);
        }

        public Iterator<E> iterator() {
            return new Iterator<E>() {
                private boolean done;

                public boolean hasNext() {
                    return !done;
                }

                public E next() {
                    if (done) {
                        throw new NoSuchElementException();
                    }
                    done = true;
                    return element;
                }
            };
        }
    }

    public static <K, V> Map<K, V> singletonMap(K key, V value) {
        Map<K, V> m = new HashMap<K, V>(1);
        m.put(key, value);
        return unmodifiableMap(m);
    }

    public static <T> List<T> nCopies(int n, T o) {
        if (n < 0) {
            throw new IllegalArgumentException("List length = " + n);
        }
        return new CopiesList<T>(n, o);
    }

    private static final class CopiesList<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final int n;
        private final E element;

        CopiesList(int n, E e) {
            this.n = n;
            this.element = e;
        }

        public int size() {
            return n;
        }

        public E get(int index) {
            checkElementIndex(index, n);
            return element;
        }
    }

    // Unmodifiable wrappers.

    static class UnmodifiableCollection<E> implements Collection<E>, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final Collection<? extends E> c;

        UnmodifiableCollection(Collection<? extends E> c) {
            this.c = Objects.requireNonNull(c);
        }

        public int size() {
            return c.size();
        }

        public boolean isEmpty() {
            return c.isEmpty();
        }

        public boolean contains(Object o) {
            return c.contains(o);
        }

        public Object[] toArray() {
            return c.toArray();
        }

        public <T> T[] toArray(T[] a) {
            return c.toArray(a);
        }

        public String toString() {
            return c.toString();
        }

        public Iterator<E> iterator() {
            final Iterator<? extends E> it = c.iterator();
            return new Iterator<E>() {
                public boolean hasNext() {
                    return it.hasNext();
                }

                public E next() {
                    return it.next();
                }
            };
        }

        public boolean add(E e) {
            throw new UnsupportedOperationException();
        }

        public boolean remove(Object o) {
            throw new UnsupportedOperationException();
        }

        public boolean containsAll(Collection<?> coll) {
            return c.containsAll(coll);
        }

        public boolean addAll(Collection<? extends E> coll) {
            throw new UnsupportedOperationException();
        }

        public boolean removeAll(Collection<?> coll) {
            throw new UnsupportedOperationException();
        }

        public boolean retainAll(Collection<?> coll) {
            throw new UnsupportedOperationException();
        }

        public void clear() {
            throw new UnsupportedOperationException();
        }
    }

    static class UnmodifiableSet<E> extends UnmodifiableCollection<E> implements Set<E> {
        private static final long serialVersionUID = 1L;

        UnmodifiableSet(Set<? extends E> s) {
            super(s);
        }

        public boolean equals(Object o) {
            return o == this || c.equals(o);
        }

        public int hashCode() {
            return c.hashCode();
        }
    }

    static class UnmodifiableList<E> extends UnmodifiableCollection<E> implements List<E> {
        private static final long serialVersionUID = 1L;
        final List<? extends E> list;

        UnmodifiableList(List<? extends E> list) {
            super(list);
            this.list = list;
        }

        public boolean equals(Object o) {
            return o == this || list.equals(o);
        }

        public int hashCode() {
            return list.hashCode();
        }

        public E get(int index) {
            return list.get(index);
        }

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
            return list.indexOf(o);
        }

        public int lastIndexOf(Object o) {
            return list.lastIndexOf(o);
        }

        public boolean addAll(int index, Collection<? extends E> c) {
            throw new UnsupportedOperationException();
        }

        public void sort(Comparator<? super E> c) {
            throw new UnsupportedOperationException();
        }

        public ListIterator<E> listIterator() {
            return listIterator(0);
        }

        public ListIterator<E> listIterator(final int index) {
            final ListIterator<? extends E> it = list.listIterator(index);
            return new ListIterator<E>() {
                public boolean hasNext() {
                    return it.hasNext();
                }

                public E next() {
                    return it.next();
                }

                public boolean hasPrevious() {
                    return it.hasPrevious();
                }

                public E previous() {
                    return it.previous();
                }

                public int nextIndex() {
                    return it.nextIndex();
                }

                public int previousIndex() {
                    return it.previousIndex();
                }

                public void remove() {
                    throw new UnsupportedOperationException();
                }

                public void set(E e) {
                    throw new UnsupportedOperationException();
                }

                public void add(E e) {
                    throw new UnsupportedOperationException();
                }
            };
        }

        public List<E> subList(int fromIndex, int toIndex) {
            return new UnmodifiableList<E>(list.subList(fromIndex, toIndex));
        }
    }

    static class UnmodifiableRandomAccessList<E> extends UnmodifiableList<E> implements RandomAccess {
        private static final long serialVersionUID = 1L;

        UnmodifiableRandomAccessList(List<? extends E> list) {
            super(list);
        }

        public List<E> subList(int fromIndex, int toIndex) {
            return new UnmodifiableRandomAccessList<E>(list.subList(fromIndex, toIndex));
        }
    }

    public static <T> Collection<T> unmodifiableCollection(Collection<? extends T> c) {
        return new UnmodifiableCollection<T>(c);
    }

    public static <T> Set<T> unmodifiableSet(Set<? extends T> s) {
        return new UnmodifiableSet<T>(s);
    }

    public static <T> List<T> unmodifiableList(List<? extends T> list) {
        if (list instanceof RandomAccess) {
            return new UnmodifiableRandomAccessList<T>(list);
        }
        return new UnmodifiableList<T>(list);
    }

    public static <K, V> Map<K, V> unmodifiableMap(Map<? extends K, ? extends V> m) {
        return new UnmodifiableMap<K, V>(m);
    }

    private static class UnmodifiableMap<K, V> implements Map<K, V>, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final Map<? extends K, ? extends V> m;

        UnmodifiableMap(Map<? extends K, ? extends V> m) {
            this.m = Objects.requireNonNull(m);
        }

        public int size() {
            return m.size();
        }

        public boolean isEmpty() {
            return m.isEmpty();
        }

        public boolean containsKey(Object key) {
            return m.containsKey(key);
        }

        public boolean containsValue(Object val) {
            return m.containsValue(val);
        }

        public V get(Object key) {
            return m.get(key);
        }

        public V put(K key, V value) {
            throw new UnsupportedOperationException();
        }

        public V remove(Object key) {
            throw new UnsupportedOperationException();
        }

        public void putAll(Map<? extends K, ? extends V> map) {
            throw new UnsupportedOperationException();
        }

        public void clear() {
            throw new UnsupportedOperationException();
        }

        public Set<K> keySet() {
            return unmodifiableSet(m.keySet());
        }

        public Collection<V> values() {
            return unmodifiableCollection(m.values());
        }

        public Set<Map.Entry<K, V>> entrySet() {
            final Set<? extends Map.Entry<? extends K, ? extends V>> es = m.entrySet();
            return new AbstractSet<Map.Entry<K, V>>() {
                public int size() {
                    return es.size();
                }

                public Iterator<Map.Entry<K, V>> iterator() {
                    final Iterator<? extends Map.Entry<? extends K, ? extends V>> it = es.iterator();
                    return new Iterator<Map.Entry<K, V>>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public Map.Entry<K, V> next() {
                            Map.Entry<? extends K, ? extends V> e = it.next();
                            return new AbstractMap.SimpleImmutableEntry<K, V>(e.getKey(), e.getValue());
                        }
                    };
                }
            };
        }

        public boolean equals(Object o) {
            return o == this || m.equals(o);
        }

        public int hashCode() {
            return m.hashCode();
        }

        public String toString() {
            return m.toString();
        }
    }

    // Synchronized wrappers: every method locks the wrapper.

    public static <T> List<T> synchronizedList(List<T> list) {
        return new SynchronizedList<T>(list);
    }

    private static class SynchronizedList<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final List<E> list;

        SynchronizedList(List<E> list) {
            this.list = Objects.requireNonNull(list);
        }

        public synchronized int size() {
            return list.size();
        }

        public synchronized E get(int index) {
            return list.get(index);
        }

        public synchronized E set(int index, E e) {
            return list.set(index, e);
        }

        public synchronized void add(int index, E e) {
            list.add(index, e);
            modCount++;
        }

        public synchronized E remove(int index) {
            modCount++;
            return list.remove(index);
        }

        public synchronized String toString() {
            return list.toString();
        }
    }

    public static <K, V> Map<K, V> synchronizedMap(Map<K, V> m) {
        return new SynchronizedMap<K, V>(m);
    }

    private static class SynchronizedMap<K, V> extends AbstractMap<K, V> implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final Map<K, V> m;

        SynchronizedMap(Map<K, V> m) {
            this.m = Objects.requireNonNull(m);
        }

        public synchronized int size() {
            return m.size();
        }

        public synchronized boolean containsKey(Object key) {
            return m.containsKey(key);
        }

        public synchronized V get(Object key) {
            return m.get(key);
        }

        public synchronized V put(K key, V value) {
            return m.put(key, value);
        }

        public synchronized V remove(Object key) {
            return m.remove(key);
        }

        public synchronized void clear() {
            m.clear();
        }

        public Set<Map.Entry<K, V>> entrySet() {
            return m.entrySet();
        }

        public synchronized String toString() {
            return m.toString();
        }
    }
}
