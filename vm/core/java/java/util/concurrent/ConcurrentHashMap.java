package java.util.concurrent;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A thread-safe hash map without null keys or values. Every operation
 * holds the map's private monitor (only one Java thread runs at a time on
 * this VM, so finer locking would buy nothing). Iterators walk a snapshot
 * taken when they are created, so they never throw
 * ConcurrentModificationException and may miss later changes, as the
 * platform's weakly consistent iterators may; their remove removes from
 * the map. Iteration follows HashMap's order.
 */
public class ConcurrentHashMap<K, V> extends AbstractMap<K, V> implements ConcurrentMap<K, V>, java.io.Serializable {
    private final HashMap<K, V> map;

    public ConcurrentHashMap() {
        map = new HashMap<K, V>();
    }

    public ConcurrentHashMap(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException();
        }
        map = new HashMap<K, V>(initialCapacity);
    }

    public ConcurrentHashMap(int initialCapacity, float loadFactor) {
        this(initialCapacity, loadFactor, 1);
    }

    public ConcurrentHashMap(int initialCapacity, float loadFactor, int concurrencyLevel) {
        if (!(loadFactor > 0.0f) || initialCapacity < 0 || concurrencyLevel <= 0) {
            throw new IllegalArgumentException();
        }
        map = new HashMap<K, V>(initialCapacity, loadFactor);
    }

    public ConcurrentHashMap(Map<? extends K, ? extends V> m) {
        this();
        putAll(m);
    }

    private static void check(Object o) {
        if (o == null) {
            throw new NullPointerException();
        }
    }

    public int size() {
        synchronized (map) {
            return map.size();
        }
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public long mappingCount() {
        return size();
    }

    public V get(Object key) {
        check(key);
        synchronized (map) {
            return map.get(key);
        }
    }

    public V getOrDefault(Object key, V defaultValue) {
        V v = get(key);
        return v != null ? v : defaultValue;
    }

    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    public boolean containsValue(Object value) {
        check(value);
        synchronized (map) {
            return map.containsValue(value);
        }
    }

    /** Same as containsValue (the Hashtable method). */
    public boolean contains(Object value) {
        return containsValue(value);
    }

    public V put(K key, V value) {
        check(key);
        check(value);
        synchronized (map) {
            return map.put(key, value);
        }
    }

    public void putAll(Map<? extends K, ? extends V> m) {
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    public V putIfAbsent(K key, V value) {
        check(key);
        check(value);
        synchronized (map) {
            V v = map.get(key);
            if (v == null) {
                map.put(key, value);
            }
            return v;
        }
    }

    public V remove(Object key) {
        check(key);
        synchronized (map) {
            return map.remove(key);
        }
    }

    public boolean remove(Object key, Object value) {
        check(key);
        if (value == null) {
            return false;
        }
        synchronized (map) {
            V v = map.get(key);
            if (v != null && v.equals(value)) {
                map.remove(key);
                return true;
            }
            return false;
        }
    }

    public boolean replace(K key, V oldValue, V newValue) {
        check(key);
        check(oldValue);
        check(newValue);
        synchronized (map) {
            V v = map.get(key);
            if (v != null && v.equals(oldValue)) {
                map.put(key, newValue);
                return true;
            }
            return false;
        }
    }

    public V replace(K key, V value) {
        check(key);
        check(value);
        synchronized (map) {
            V v = map.get(key);
            if (v != null) {
                map.put(key, value);
            }
            return v;
        }
    }

    public void clear() {
        synchronized (map) {
            map.clear();
        }
    }

    // A snapshot of the entries, as immutable pairs whose setValue writes
    // through to the map.
    private ArrayList<Map.Entry<K, V>> snapshot() {
        synchronized (map) {
            ArrayList<Map.Entry<K, V>> list = new ArrayList<Map.Entry<K, V>>(map.size());
            for (Map.Entry<K, V> e : map.entrySet()) {
                list.add(new Entry(e.getKey(), e.getValue()));
            }
            return list;
        }
    }

    private final class Entry extends AbstractMap.SimpleEntry<K, V> {
        Entry(K k, V v) {
            super(k, v);
        }

        public V setValue(V v) {
            check(v);
            put(getKey(), v);
            return super.setValue(v);
        }
    }

    // Iterates a snapshot; kind 0 yields keys, 1 values, 2 entries.
    private final class SnapshotIterator<T> implements Iterator<T>, Enumeration<T> {
        private final Iterator<Map.Entry<K, V>> it = snapshot().iterator();
        private final int kind;
        private Map.Entry<K, V> last;

        SnapshotIterator(int kind) {
            this.kind = kind;
        }

        public boolean hasNext() {
            return it.hasNext();
        }

        @SuppressWarnings("unchecked")
        public T next() {
            last = it.next();
            return (T) (kind == 0 ? last.getKey() : kind == 1 ? last.getValue() : last);
        }

        public void remove() {
            if (last == null) {
                throw new IllegalStateException();
            }
            ConcurrentHashMap.this.remove(last.getKey());
            last = null;
        }

        public boolean hasMoreElements() {
            return hasNext();
        }

        public T nextElement() {
            return next();
        }
    }

    public KeySetView<K, V> keySet() {
        return new KeySetView<K, V>(this);
    }

    /** The map's keys as a set backed by the map (no adding). */
    public static class KeySetView<K, V> extends AbstractSet<K> implements java.io.Serializable {
        private final ConcurrentHashMap<K, V> map;

        KeySetView(ConcurrentHashMap<K, V> map) {
            this.map = map;
        }

        public ConcurrentHashMap<K, V> getMap() {
            return map;
        }

        public Iterator<K> iterator() {
            return map.new SnapshotIterator<K>(0);
        }

        public int size() {
            return map.size();
        }

        public boolean contains(Object o) {
            return map.containsKey(o);
        }

        public boolean remove(Object o) {
            return map.remove(o) != null;
        }

        public void clear() {
            map.clear();
        }
    }

    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public Iterator<V> iterator() {
                return new SnapshotIterator<V>(1);
            }

            public int size() {
                return ConcurrentHashMap.this.size();
            }

            public boolean contains(Object o) {
                return containsValue(o);
            }

            public void clear() {
                ConcurrentHashMap.this.clear();
            }
        };
    }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public Iterator<Map.Entry<K, V>> iterator() {
                return new SnapshotIterator<Map.Entry<K, V>>(2);
            }

            public int size() {
                return ConcurrentHashMap.this.size();
            }

            public boolean contains(Object o) {
                if (!(o instanceof Map.Entry)) {
                    return false;
                }
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                Object v = e.getKey() == null ? null : get(e.getKey());
                return v != null && v.equals(e.getValue());
            }

            public boolean remove(Object o) {
                if (!(o instanceof Map.Entry)) {
                    return false;
                }
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                return e.getKey() != null && ConcurrentHashMap.this.remove(e.getKey(), e.getValue());
            }

            public void clear() {
                ConcurrentHashMap.this.clear();
            }
        };
    }

    public Enumeration<K> keys() {
        return new SnapshotIterator<K>(0);
    }

    public Enumeration<V> elements() {
        return new SnapshotIterator<V>(1);
    }
}
