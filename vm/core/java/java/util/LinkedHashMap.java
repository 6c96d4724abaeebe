package java.util;

/** A HashMap that iterates in insertion order (or access order). */
public class LinkedHashMap<K, V> extends HashMap<K, V> implements Map<K, V> {
    private static final long serialVersionUID = 1L;

    static class Entry<K, V> extends HashMap.Node<K, V> {
        Entry<K, V> before;
        Entry<K, V> after;

        Entry(int hash, K key, V value) {
            super(hash, key, value, null);
        }
    }

    transient Entry<K, V> head;
    transient Entry<K, V> tail;
    final boolean accessOrder;

    public LinkedHashMap(int initialCapacity, float loadFactor) {
        super(initialCapacity, loadFactor);
        accessOrder = false;
    }

    public LinkedHashMap(int initialCapacity) {
        super(initialCapacity);
        accessOrder = false;
    }

    public LinkedHashMap() {
        accessOrder = false;
    }

    public LinkedHashMap(Map<? extends K, ? extends V> m) {
        accessOrder = false;
        putMapEntries(m);
    }

    public LinkedHashMap(int initialCapacity, float loadFactor, boolean accessOrder) {
        super(initialCapacity, loadFactor);
        this.accessOrder = accessOrder;
    }

    /** Lets subclasses evict the eldest entry after each insertion (e.g. LRU caches). */
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return false;
    }

    private void unlink(Entry<K, V> p) {
        if (p.before == null) {
            head = p.after;
        } else {
            p.before.after = p.after;
        }
        if (p.after == null) {
            tail = p.before;
        } else {
            p.after.before = p.before;
        }
        p.before = null;
        p.after = null;
    }

    private void linkLast(Entry<K, V> p) {
        p.before = tail;
        p.after = null;
        if (tail == null) {
            head = p;
        } else {
            tail.after = p;
        }
        tail = p;
    }

    HashMap.Node<K, V> newNode(int hash, K key, V value) {
        Entry<K, V> e = new Entry<K, V>(hash, key, value);
        linkLast(e);
        return e;
    }

    void reinitialize() {
        super.reinitialize();
        head = null;
        tail = null;
    }

    void afterNodeAccess(HashMap.Node<K, V> p) {
        if (accessOrder && tail != p) {
            Entry<K, V> e = (Entry<K, V>) p;
            unlink(e);
            linkLast(e);
            modCount++;
        }
    }

    void afterNodeInsertion() {
        Entry<K, V> first = head;
        if (first != null && removeEldestEntry(first)) {
            removeNode(hash(first.key), first.key, null, false);
        }
    }

    void afterNodeRemoval(HashMap.Node<K, V> p) {
        unlink((Entry<K, V>) p);
    }

    void afterClear() {
        head = null;
        tail = null;
    }

    public V get(Object key) {
        HashMap.Node<K, V> e = getNode(key);
        if (e == null) {
            return null;
        }
        afterNodeAccess(e);
        return e.value;
    }

    public V getOrDefault(Object key, V defaultValue) {
        HashMap.Node<K, V> e = getNode(key);
        if (e == null) {
            return defaultValue;
        }
        afterNodeAccess(e);
        return e.value;
    }

    public boolean containsValue(Object value) {
        for (Entry<K, V> e = head; e != null; e = e.after) {
            if (Objects.equals(value, e.value)) {
                return true;
            }
        }
        return false;
    }

    Iterator<HashMap.Node<K, V>> nodeIterator() {
        return new Iterator<HashMap.Node<K, V>>() {
            private Entry<K, V> next = head;
            private Entry<K, V> current;
            private int expectedModCount = modCount;

            public boolean hasNext() {
                return next != null;
            }

            public HashMap.Node<K, V> next() {
                if (modCount != expectedModCount) {
                    throw new ConcurrentModificationException();
                }
                Entry<K, V> e = next;
                if (e == null) {
                    throw new NoSuchElementException();
                }
                current = e;
                next = e.after;
                return e;
            }

            public void remove() {
                Entry<K, V> p = current;
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
        };
    }
}
