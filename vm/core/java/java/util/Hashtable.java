package java.util;

/**
 * A synchronized hash table without null keys or values. It keeps the
 * Java platform's layout, so iteration order is the same: a table of 11
 * buckets by default indexed by (hashCode & 0x7fffffff) % length, new
 * entries at the head of their bucket, growth to 2n+1 when the count
 * reaches the threshold, and iteration from the last bucket to the first.
 */
public class Hashtable<K, V> extends Dictionary<K, V> implements Map<K, V>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final class Entry<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V value;
        Entry<K, V> next;

        Entry(int hash, K key, V value, Entry<K, V> next) {
            this.hash = hash;
            this.key = key;
            this.value = value;
            this.next = next;
        }

        public K getKey() {
            return key;
        }

        public V getValue() {
            return value;
        }

        public V setValue(V v) {
            if (v == null) {
                throw new NullPointerException();
            }
            V old = value;
            value = v;
            return old;
        }

        public boolean equals(Object o) {
            return AbstractMap.entryEquals(this, o);
        }

        public int hashCode() {
            return hash ^ Objects.hashCode(value);
        }

        public String toString() {
            return key + "=" + value;
        }
    }

    private Entry<?, ?>[] table;
    private int count;
    private int threshold;
    private final float loadFactor;
    private int modCount;

    public Hashtable(int initialCapacity, float loadFactor) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("Illegal Capacity: " + initialCapacity);
        }
        if (loadFactor <= 0 || loadFactor != loadFactor) {
            throw new IllegalArgumentException("Illegal Load: " + loadFactor);
        }
        if (initialCapacity == 0) {
            initialCapacity = 1;
        }
        this.loadFactor = loadFactor;
        table = new Entry<?, ?>[initialCapacity];
        threshold = thresholdFor(initialCapacity);
    }

    public Hashtable(int initialCapacity) {
        this(initialCapacity, 0.75f);
    }

    public Hashtable() {
        this(11, 0.75f);
    }

    public Hashtable(Map<? extends K, ? extends V> t) {
        this(Math.max(2 * t.size(), 11), 0.75f);
        putAll(t);
    }

    private int thresholdFor(int capacity) {
        return (int) Math.min(capacity * loadFactor, Integer.MAX_VALUE - 7);
    }

    private static int indexFor(int hash, int length) {
        return (hash & 0x7fffffff) % length;
    }

    public synchronized int size() {
        return count;
    }

    public synchronized boolean isEmpty() {
        return count == 0;
    }

    @SuppressWarnings("unchecked")
    private Entry<K, V> entry(Object key) {
        int h = key.hashCode();
        for (Entry<?, ?> e = table[indexFor(h, table.length)]; e != null; e = e.next) {
            if (e.hash == h && e.key.equals(key)) {
                return (Entry<K, V>) e;
            }
        }
        return null;
    }

    public synchronized boolean contains(Object value) {
        if (value == null) {
            throw new NullPointerException();
        }
        for (int i = table.length - 1; i >= 0; i--) {
            for (Entry<?, ?> e = table[i]; e != null; e = e.next) {
                if (e.value.equals(value)) {
                    return true;
                }
            }
        }
        return false;
    }

    public boolean containsValue(Object value) {
        return contains(value);
    }

    public synchronized boolean containsKey(Object key) {
        return entry(key) != null;
    }

    public synchronized V get(Object key) {
        Entry<K, V> e = entry(key);
        return e == null ? null : e.value;
    }

    private void rehash() {
        Entry<?, ?>[] old = table;
        int n = old.length * 2 + 1;
        Entry<?, ?>[] t = new Entry<?, ?>[n];
        modCount++;
        threshold = thresholdFor(n);
        table = t;
        // Move entries bucket by bucket from the last, each to the head of
        // its new bucket, which is what fixes the iteration order.
        for (int i = old.length - 1; i >= 0; i--) {
            Entry<?, ?> e = old[i];
            while (e != null) {
                Entry<?, ?> next = e.next;
                int idx = indexFor(e.hash, n);
                setNext(e, t[idx]);
                t[idx] = e;
                e = next;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void setNext(Entry e, Entry next) {
        e.next = next;
    }

    public synchronized V put(K key, V value) {
        if (value == null) {
            throw new NullPointerException();
        }
        Entry<K, V> e = entry(key);
        if (e != null) {
            V old = e.value;
            e.value = value;
            return old;
        }
        if (count >= threshold) {
            rehash();
        }
        int h = key.hashCode();
        int idx = indexFor(h, table.length);
        @SuppressWarnings("unchecked")
        Entry<K, V> head = (Entry<K, V>) table[idx];
        table[idx] = new Entry<K, V>(h, key, value, head);
        count++;
        modCount++;
        return null;
    }

    public synchronized V remove(Object key) {
        int h = key.hashCode();
        int idx = indexFor(h, table.length);
        Entry<?, ?> prev = null;
        for (Entry<?, ?> e = table[idx]; e != null; prev = e, e = e.next) {
            if (e.hash == h && e.key.equals(key)) {
                if (prev == null) {
                    table[idx] = e.next;
                } else {
                    setNext(prev, e.next);
                }
                modCount++;
                count--;
                @SuppressWarnings("unchecked")
                V v = (V) e.value;
                return v;
            }
        }
        return null;
    }

    public synchronized void putAll(Map<? extends K, ? extends V> t) {
        for (Map.Entry<? extends K, ? extends V> e : t.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    public synchronized void clear() {
        for (int i = 0; i < table.length; i++) {
            table[i] = null;
        }
        modCount++;
        count = 0;
    }

    @SuppressWarnings("unchecked")
    public synchronized Object clone() {
        try {
            Hashtable<K, V> t = (Hashtable<K, V>) super.clone();
            t.table = new Entry<?, ?>[table.length];
            for (int i = table.length - 1; i >= 0; i--) {
                Entry<?, ?> copy = null;
                Entry<?, ?> last = null;
                for (Entry<?, ?> e = table[i]; e != null; e = e.next) {
                    Entry<?, ?> c = new Entry<Object, Object>(e.hash, e.key, e.value, null);
                    if (last == null) {
                        copy = c;
                    } else {
                        setNext(last, c);
                    }
                    last = c;
                }
                t.table[i] = copy;
            }
            t.modCount = 0;
            return t;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }

    /** Iterates over the entries, last bucket first; kind selects what is returned. */
    private final class Itr<T> implements Iterator<T>, Enumeration<T> {
        private final int kind; // 0 keys, 1 values, 2 entries
        private final boolean failFast;
        private int index = table.length;
        private Entry<?, ?> next;
        private Entry<?, ?> last;
        private int expectedModCount = modCount;

        Itr(int kind, boolean failFast) {
            this.kind = kind;
            this.failFast = failFast;
        }

        public boolean hasMoreElements() {
            Entry<?, ?> e = next;
            int i = index;
            Entry<?, ?>[] t = table;
            while (e == null && i > 0) {
                e = t[--i];
            }
            next = e;
            index = i;
            return e != null;
        }

        @SuppressWarnings("unchecked")
        public T nextElement() {
            if (!hasMoreElements()) {
                throw new NoSuchElementException("Hashtable Enumerator");
            }
            Entry<?, ?> e = next;
            last = e;
            next = e.next;
            return (T) (kind == 0 ? e.key : kind == 1 ? e.value : e);
        }

        public boolean hasNext() {
            return hasMoreElements();
        }

        public T next() {
            if (failFast && modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            return nextElement();
        }

        public void remove() {
            if (last == null) {
                throw new IllegalStateException("Hashtable Enumerator");
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            synchronized (Hashtable.this) {
                Hashtable.this.remove(last.key);
                expectedModCount = modCount;
                last = null;
            }
        }
    }

    public synchronized Enumeration<K> keys() {
        return new Itr<K>(0, false);
    }

    public synchronized Enumeration<V> elements() {
        return new Itr<V>(1, false);
    }

    public Set<K> keySet() {
        return new AbstractSet<K>() {
            public Iterator<K> iterator() {
                return new Itr<K>(0, true);
            }

            public int size() {
                return count;
            }

            public boolean contains(Object o) {
                return containsKey(o);
            }

            public boolean remove(Object o) {
                return Hashtable.this.remove(o) != null;
            }

            public void clear() {
                Hashtable.this.clear();
            }
        };
    }

    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public Iterator<V> iterator() {
                return new Itr<V>(1, true);
            }

            public int size() {
                return count;
            }

            public boolean contains(Object o) {
                return containsValue(o);
            }

            public void clear() {
                Hashtable.this.clear();
            }
        };
    }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public Iterator<Map.Entry<K, V>> iterator() {
                return new Itr<Map.Entry<K, V>>(2, true);
            }

            public int size() {
                return count;
            }

            public void clear() {
                Hashtable.this.clear();
            }
        };
    }

    public synchronized String toString() {
        Iterator<Map.Entry<K, V>> it = entrySet().iterator();
        if (!it.hasNext()) {
            return "{}";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('{');
        for (;;) {
            Map.Entry<K, V> e = it.next();
            K key = e.getKey();
            V value = e.getValue();
            sb.append(key == this ? "(this Map)" : key.toString());
            sb.append('=');
            sb.append(value == this ? "(this Map)" : value.toString());
            if (!it.hasNext()) {
                return sb.append('}').toString();
            }
            sb.append(", ");
        }
    }

    public synchronized boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Map)) {
            return false;
        }
        Map<?, ?> m = (Map<?, ?>) o;
        if (m.size() != size()) {
            return false;
        }
        for (Map.Entry<K, V> e : entrySet()) {
            if (!e.getValue().equals(m.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    public synchronized int hashCode() {
        int h = 0;
        for (Map.Entry<K, V> e : entrySet()) {
            h += e.hashCode();
        }
        return h;
    }
}
