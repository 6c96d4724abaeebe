package java.util;

/** A skeleton Map over entrySet(). */
public abstract class AbstractMap<K, V> implements Map<K, V> {
    transient Set<K> keySet;
    transient Collection<V> values;

    protected AbstractMap() {
    }

    public abstract Set<Map.Entry<K, V>> entrySet();

    public int size() {
        return entrySet().size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public boolean containsValue(Object value) {
        for (Map.Entry<K, V> e : entrySet()) {
            if (Objects.equals(value, e.getValue())) {
                return true;
            }
        }
        return false;
    }

    public boolean containsKey(Object key) {
        for (Map.Entry<K, V> e : entrySet()) {
            if (Objects.equals(key, e.getKey())) {
                return true;
            }
        }
        return false;
    }

    public V get(Object key) {
        for (Map.Entry<K, V> e : entrySet()) {
            if (Objects.equals(key, e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    public V put(K key, V value) {
        throw new UnsupportedOperationException();
    }

    public V remove(Object key) {
        for (Iterator<Map.Entry<K, V>> it = entrySet().iterator(); it.hasNext();) {
            Map.Entry<K, V> e = it.next();
            if (Objects.equals(key, e.getKey())) {
                V v = e.getValue();
                it.remove();
                return v;
            }
        }
        return null;
    }

    public void putAll(Map<? extends K, ? extends V> m) {
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    public void clear() {
        entrySet().clear();
    }

    public Set<K> keySet() {
        Set<K> ks = keySet;
        if (ks == null) {
            ks = new AbstractSet<K>() {
                public Iterator<K> iterator() {
                    final Iterator<Map.Entry<K, V>> it = entrySet().iterator();
                    return new Iterator<K>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public K next() {
                            return it.next().getKey();
                        }

                        public void remove() {
                            it.remove();
                        }
                    };
                }

                public int size() {
                    return AbstractMap.this.size();
                }

                public boolean contains(Object k) {
                    return AbstractMap.this.containsKey(k);
                }

                public void clear() {
                    AbstractMap.this.clear();
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
                public Iterator<V> iterator() {
                    final Iterator<Map.Entry<K, V>> it = entrySet().iterator();
                    return new Iterator<V>() {
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        public V next() {
                            return it.next().getValue();
                        }

                        public void remove() {
                            it.remove();
                        }
                    };
                }

                public int size() {
                    return AbstractMap.this.size();
                }

                public boolean contains(Object v) {
                    return AbstractMap.this.containsValue(v);
                }

                public void clear() {
                    AbstractMap.this.clear();
                }
            };
            values = vs;
        }
        return vs;
    }

    public boolean equals(Object o) {
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
        try {
            for (Map.Entry<K, V> e : entrySet()) {
                K key = e.getKey();
                V value = e.getValue();
                if (value == null) {
                    if (!(m.get(key) == null && m.containsKey(key))) {
                        return false;
                    }
                } else if (!value.equals(m.get(key))) {
                    return false;
                }
            }
        } catch (ClassCastException e) {
            return false;
        } catch (NullPointerException e) {
            return false;
        }
        return true;
    }

    public int hashCode() {
        int h = 0;
        for (Map.Entry<K, V> e : entrySet()) {
            h += e.hashCode();
        }
        return h;
    }

    public String toString() {
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
            sb.append(key == this ? "(this Map)" : key);
            sb.append('=');
            sb.append(value == this ? "(this Map)" : value);
            if (!it.hasNext()) {
                return sb.append('}').toString();
            }
            sb.append(',').append(' ');
        }
    }

    @SuppressWarnings("unchecked")
    protected Object clone() throws CloneNotSupportedException {
        AbstractMap<K, V> result = (AbstractMap<K, V>) super.clone();
        result.keySet = null;
        result.values = null;
        return result;
    }

    /** A mutable key-value pair. */
    public static class SimpleEntry<K, V> implements Map.Entry<K, V>, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        private final K key;
        private V value;

        public SimpleEntry(K key, V value) {
            this.key = key;
            this.value = value;
        }

        public SimpleEntry(Map.Entry<? extends K, ? extends V> entry) {
            this.key = entry.getKey();
            this.value = entry.getValue();
        }

        public K getKey() {
            return key;
        }

        public V getValue() {
            return value;
        }

        public V setValue(V value) {
            V old = this.value;
            this.value = value;
            return old;
        }

        public boolean equals(Object o) {
            return entryEquals(this, o);
        }

        public int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(value);
        }

        public String toString() {
            return key + "=" + value;
        }
    }

    /** An immutable key-value pair. */
    public static class SimpleImmutableEntry<K, V> implements Map.Entry<K, V>, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        private final K key;
        private final V value;

        public SimpleImmutableEntry(K key, V value) {
            this.key = key;
            this.value = value;
        }

        public SimpleImmutableEntry(Map.Entry<? extends K, ? extends V> entry) {
            this.key = entry.getKey();
            this.value = entry.getValue();
        }

        public K getKey() {
            return key;
        }

        public V getValue() {
            return value;
        }

        public V setValue(V value) {
            throw new UnsupportedOperationException();
        }

        public boolean equals(Object o) {
            return entryEquals(this, o);
        }

        public int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(value);
        }

        public String toString() {
            return key + "=" + value;
        }
    }

    static boolean entryEquals(Map.Entry<?, ?> e, Object o) {
        if (!(o instanceof Map.Entry)) {
            return false;
        }
        Map.Entry<?, ?> f = (Map.Entry<?, ?>) o;
        return Objects.equals(e.getKey(), f.getKey()) && Objects.equals(e.getValue(), f.getValue());
    }
}
