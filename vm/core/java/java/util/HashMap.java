package java.util;

/**
 * A hash table map whose iteration order matches the Java 8 HashMap for
 * the same sequence of operations (programs print maps): the spread hash
 * h ^ (h >>> 16), power-of-two tables (16 by default, load factor 0.75),
 * new entries at the tail of their bucket, resizing by doubling with each
 * bucket split into a low and a high list in order, and a resize instead
 * of treeification when a bucket grows past eight entries in a table
 * smaller than 64. Buckets are never turned into trees, so only chains
 * longer than eight in large tables iterate differently.
 */
public class HashMap<K, V> extends AbstractMap<K, V> implements Map<K, V>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    static final int DEFAULT_INITIAL_CAPACITY = 16;
    static final int MAXIMUM_CAPACITY = 1 << 30;
    static final float DEFAULT_LOAD_FACTOR = 0.75f;
    // Java turns a bucket into a tree at this length, or resizes the
    // table instead while it is smaller than MIN_TREEIFY_CAPACITY.
    static final int TREEIFY_THRESHOLD = 8;
    static final int MIN_TREEIFY_CAPACITY = 64;

    /** A bucket entry. */
    static class Node<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V value;
        Node<K, V> next;

        Node(int hash, K key, V value, Node<K, V> next) {
            this.hash = hash;
            this.key = key;
            this.value = value;
            this.next = next;
        }

        public final K getKey() {
            return key;
        }

        public final V getValue() {
            return value;
        }

        public final V setValue(V newValue) {
            V old = value;
            value = newValue;
            return old;
        }

        public final boolean equals(Object o) {
            return o == this || AbstractMap.entryEquals(this, o);
        }

        public final int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(value);
        }

        public final String toString() {
            return key + "=" + value;
        }
    }

    transient Node<K, V>[] table;
    transient int size;
    transient int modCount;
    int threshold;
    final float loadFactor;
    private transient Set<Map.Entry<K, V>> entrySet;

    public HashMap(int initialCapacity, float loadFactor) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("Illegal initial capacity: " + initialCapacity);
        }
        if (initialCapacity > MAXIMUM_CAPACITY) {
            initialCapacity = MAXIMUM_CAPACITY;
        }
        if (loadFactor <= 0 || loadFactor != loadFactor) {
            throw new IllegalArgumentException("Illegal load factor: " + loadFactor);
        }
        this.loadFactor = loadFactor;
        // Until the table exists, threshold holds its initial capacity.
        this.threshold = tableSizeFor(initialCapacity);
    }

    public HashMap(int initialCapacity) {
        this(initialCapacity, DEFAULT_LOAD_FACTOR);
    }

    public HashMap() {
        this.loadFactor = DEFAULT_LOAD_FACTOR;
    }

    public HashMap(Map<? extends K, ? extends V> m) {
        this.loadFactor = DEFAULT_LOAD_FACTOR;
        putMapEntries(m);
    }

    static final int hash(Object key) {
        if (key == null) {
            return 0;
        }
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    /** The smallest power of two >= cap (1 for cap <= 1). */
    static final int tableSizeFor(int cap) {
        int n = 1;
        while (n < cap && n < MAXIMUM_CAPACITY) {
            n <<= 1;
        }
        return n;
    }

    final void putMapEntries(Map<? extends K, ? extends V> m) {
        int s = m.size();
        if (s <= 0) {
            return;
        }
        if (table == null) {
            float ft = ((float) s / loadFactor) + 1.0f;
            int t = ft < (float) MAXIMUM_CAPACITY ? (int) ft : MAXIMUM_CAPACITY;
            if (t > threshold) {
                threshold = tableSizeFor(t);
            }
        } else if (s > threshold) {
            resize();
        }
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
            K key = e.getKey();
            putVal(hash(key), key, e.getValue(), false);
        }
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    final Node<K, V> getNode(Object key) {
        Node<K, V>[] tab = table;
        if (tab == null || tab.length == 0) {
            return null;
        }
        int h = hash(key);
        for (Node<K, V> e = tab[(tab.length - 1) & h]; e != null; e = e.next) {
            if (e.hash == h && (e.key == key || (key != null && key.equals(e.key)))) {
                return e;
            }
        }
        return null;
    }

    public V get(Object key) {
        Node<K, V> e = getNode(key);
        return e == null ? null : e.value;
    }

    public V getOrDefault(Object key, V defaultValue) {
        Node<K, V> e = getNode(key);
        return e == null ? defaultValue : e.value;
    }

    public boolean containsKey(Object key) {
        return getNode(key) != null;
    }

    public V put(K key, V value) {
        return putVal(hash(key), key, value, false);
    }

    public V putIfAbsent(K key, V value) {
        return putVal(hash(key), key, value, true);
    }

    final V putVal(int hash, K key, V value, boolean onlyIfAbsent) {
        if (table == null || table.length == 0) {
            resize();
        }
        Node<K, V>[] tab = table;
        int i = (tab.length - 1) & hash;
        Node<K, V> p = tab[i];
        if (p == null) {
            tab[i] = newNode(hash, key, value);
        } else {
            int length = 0;
            for (;;) {
                if (p.hash == hash && (p.key == key || (key != null && key.equals(p.key)))) {
                    V old = p.value;
                    if (!onlyIfAbsent || old == null) {
                        p.value = value;
                    }
                    afterNodeAccess(p);
                    return old;
                }
                length++;
                if (p.next == null) {
                    break;
                }
                p = p.next;
            }
            p.next = newNode(hash, key, value);
            if (length >= TREEIFY_THRESHOLD && tab.length < MIN_TREEIFY_CAPACITY) {
                resize();
            }
        }
        modCount++;
        if (++size > threshold) {
            resize();
        }
        afterNodeInsertion();
        return null;
    }

    @SuppressWarnings("unchecked")
    final void resize() {
        Node<K, V>[] old = table;
        int oldCap = old == null ? 0 : old.length;
        int oldThr = threshold;
        int newCap;
        int newThr = 0;
        if (oldCap > 0) {
            if (oldCap >= MAXIMUM_CAPACITY) {
                threshold = Integer.MAX_VALUE;
                return;
            }
            newCap = oldCap << 1;
            if (newCap < MAXIMUM_CAPACITY && oldCap >= DEFAULT_INITIAL_CAPACITY) {
                newThr = oldThr << 1;
            }
        } else if (oldThr > 0) {
            newCap = oldThr;
        } else {
            newCap = DEFAULT_INITIAL_CAPACITY;
            newThr = (int) (DEFAULT_LOAD_FACTOR * DEFAULT_INITIAL_CAPACITY);
        }
        if (newThr == 0) {
            float ft = (float) newCap * loadFactor;
            newThr = newCap < MAXIMUM_CAPACITY && ft < (float) MAXIMUM_CAPACITY ? (int) ft : Integer.MAX_VALUE;
        }
        threshold = newThr;
        Node<K, V>[] tab = (Node<K, V>[]) new Node[newCap];
        table = tab;
        if (old == null) {
            return;
        }
        for (int j = 0; j < oldCap; j++) {
            Node<K, V> e = old[j];
            old[j] = null;
            // Entries stay at j or move to j + oldCap, keeping their order.
            Node<K, V> loHead = null;
            Node<K, V> loTail = null;
            Node<K, V> hiHead = null;
            Node<K, V> hiTail = null;
            while (e != null) {
                Node<K, V> next = e.next;
                e.next = null;
                if ((e.hash & oldCap) == 0) {
                    if (loTail == null) {
                        loHead = e;
                    } else {
                        loTail.next = e;
                    }
                    loTail = e;
                } else {
                    if (hiTail == null) {
                        hiHead = e;
                    } else {
                        hiTail.next = e;
                    }
                    hiTail = e;
                }
                e = next;
            }
            tab[j] = loHead;
            tab[j + oldCap] = hiHead;
        }
    }

    public void putAll(Map<? extends K, ? extends V> m) {
        putMapEntries(m);
    }

    public V remove(Object key) {
        Node<K, V> e = removeNode(hash(key), key, null, false);
        return e == null ? null : e.value;
    }

    final Node<K, V> removeNode(int hash, Object key, Object value, boolean matchValue) {
        Node<K, V>[] tab = table;
        if (tab == null || tab.length == 0) {
            return null;
        }
        int i = (tab.length - 1) & hash;
        Node<K, V> prev = null;
        for (Node<K, V> e = tab[i]; e != null; prev = e, e = e.next) {
            if (e.hash == hash && (e.key == key || (key != null && key.equals(e.key)))) {
                if (matchValue && !Objects.equals(value, e.value)) {
                    return null;
                }
                if (prev == null) {
                    tab[i] = e.next;
                } else {
                    prev.next = e.next;
                }
                modCount++;
                size--;
                afterNodeRemoval(e);
                return e;
            }
        }
        return null;
    }

    public void clear() {
        modCount++;
        if (table != null && size > 0) {
            size = 0;
            for (int i = 0; i < table.length; i++) {
                table[i] = null;
            }
        }
        afterClear();
    }

    public boolean containsValue(Object value) {
        for (Iterator<Node<K, V>> it = nodeIterator(); it.hasNext();) {
            if (Objects.equals(value, it.next().value)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    public Object clone() {
        HashMap<K, V> result;
        try {
            result = (HashMap<K, V>) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        result.reinitialize();
        result.putMapEntries(this);
        return result;
    }

    // Hooks for LinkedHashMap.

    Node<K, V> newNode(int hash, K key, V value) {
        return new Node<K, V>(hash, key, value, null);
    }

    void reinitialize() {
        table = null;
        entrySet = null;
        keySet = null;
        values = null;
        modCount = 0;
        threshold = 0;
        size = 0;
    }

    void afterNodeAccess(Node<K, V> p) {
    }

    void afterNodeInsertion() {
    }

    void afterNodeRemoval(Node<K, V> p) {
    }

    void afterClear() {
    }

    /** Iterates over the nodes in this map's order. */
    Iterator<Node<K, V>> nodeIterator() {
        return new HashIterator();
    }

    private final class HashIterator implements Iterator<Node<K, V>> {
        private Node<K, V> next;
        private Node<K, V> current;
        private int expectedModCount = modCount;
        private int index;

        HashIterator() {
            Node<K, V>[] t = table;
            if (t != null && size > 0) {
                advance(t);
            }
        }

        private void advance(Node<K, V>[] t) {
            while (next == null && index < t.length) {
                next = t[index++];
            }
        }

        public boolean hasNext() {
            return next != null;
        }

        public Node<K, V> next() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            Node<K, V> e = next;
            if (e == null) {
                throw new NoSuchElementException();
            }
            current = e;
            next = e.next;
            if (next == null && table != null) {
                advance(table);
            }
            return e;
        }

        public void remove() {
            Node<K, V> p = current;
            if (p == null) {
                throw new IllegalStateException();
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            current = null;
            removeNode(p.hash, p.key, null, false);
            expectedModCount = modCount;
        }
    }

    public Set<K> keySet() {
        Set<K> ks = keySet;
        if (ks == null) {
            ks = new AbstractSet<K>() {
                public int size() {
                    return size;
                }

                public void clear() {
                    HashMap.this.clear();
                }

                public Iterator<K> iterator() {
                    final Iterator<Node<K, V>> it = nodeIterator();
                    return new Iterator<K>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public K next() {
                            return it.next().key;
                        }

                        public void remove() {
                            it.remove();
                        }
                    };
                }

                public boolean contains(Object o) {
                    return containsKey(o);
                }

                public boolean remove(Object key) {
                    return removeNode(hash(key), key, null, false) != null;
                }
            };
            keySet = ks;
        }
        return ks;
    }

    public Collection<V> values() {
        Collection<V> vs = values;
        if (vs == null) {
            vs = new AbstractCollection<V>() {
                public int size() {
                    return size;
                }

                public void clear() {
                    HashMap.this.clear();
                }

                public Iterator<V> iterator() {
                    final Iterator<Node<K, V>> it = nodeIterator();
                    return new Iterator<V>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public V next() {
                            return it.next().value;
                        }

                        public void remove() {
                            it.remove();
                        }
                    };
                }

                public boolean contains(Object o) {
                    return containsValue(o);
                }
            };
            values = vs;
        }
        return vs;
    }

    public Set<Map.Entry<K, V>> entrySet() {
        Set<Map.Entry<K, V>> es = entrySet;
        if (es == null) {
            es = new AbstractSet<Map.Entry<K, V>>() {
                public int size() {
                    return size;
                }

                public void clear() {
                    HashMap.this.clear();
                }

                public Iterator<Map.Entry<K, V>> iterator() {
                    final Iterator<Node<K, V>> it = nodeIterator();
                    return new Iterator<Map.Entry<K, V>>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public Map.Entry<K, V> next() {
                            return it.next();
                        }

                        public void remove() {
                            it.remove();
                        }
                    };
                }

                public boolean contains(Object o) {
                    if (!(o instanceof Map.Entry)) {
                        return false;
                    }
                    Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                    Node<K, V> n = getNode(e.getKey());
                    return n != null && n.equals(e);
                }

                public boolean remove(Object o) {
                    if (!(o instanceof Map.Entry)) {
                        return false;
                    }
                    Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                    Object key = e.getKey();
                    return removeNode(hash(key), key, e.getValue(), true) != null;
                }
            };
            entrySet = es;
        }
        return es;
    }
}
