package java.util;

/**
 * A sorted map in an AVL tree. Iteration is in key order; the iterator
 * finds each successor from the root by key, which keeps the nodes free of
 * parent links. headMap, tailMap and subMap return copies, not live views.
 */
public class TreeMap<K, V> extends AbstractMap<K, V> implements SortedMap<K, V>, Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    static final class Node<K, V> implements Map.Entry<K, V> {
        K key;
        V value;
        Node<K, V> left;
        Node<K, V> right;
        int height = 1;

        Node(K key, V value) {
            this.key = key;
            this.value = value;
        }

        public K getKey() {
            return key;
        }

        public V getValue() {
            return value;
        }

        public V setValue(V v) {
            V old = value;
            value = v;
            return old;
        }

        public boolean equals(Object o) {
            return AbstractMap.entryEquals(this, o);
        }

        public int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(value);
        }

        public String toString() {
            return key + "=" + value;
        }
    }

    private final Comparator<? super K> comparator;
    private transient Node<K, V> root;
    private transient int size;
    private transient int modCount;
    private transient Set<Map.Entry<K, V>> entrySet;

    // put and remove report through these fields, since the recursive
    // helpers return the new subtree.
    private transient V oldValue;
    private transient boolean found;

    public TreeMap() {
        comparator = null;
    }

    public TreeMap(Comparator<? super K> comparator) {
        this.comparator = comparator;
    }

    public TreeMap(Map<? extends K, ? extends V> m) {
        comparator = null;
        putAll(m);
    }

    @SuppressWarnings("unchecked")
    public TreeMap(SortedMap<K, ? extends V> m) {
        comparator = m.comparator();
        putAll(m);
    }

    public Comparator<? super K> comparator() {
        return comparator;
    }

    @SuppressWarnings("unchecked")
    final int compare(Object a, Object b) {
        if (comparator != null) {
            return comparator.compare((K) a, (K) b);
        }
        return ((Comparable<Object>) a).compareTo(b);
    }

    public int size() {
        return size;
    }

    final Node<K, V> getEntry(Object key) {
        if (key == null && comparator == null) {
            throw new NullPointerException();
        }
        Node<K, V> n = root;
        while (n != null) {
            int c = compare(key, n.key);
            if (c < 0) {
                n = n.left;
            } else if (c > 0) {
                n = n.right;
            } else {
                return n;
            }
        }
        return null;
    }

    public boolean containsKey(Object key) {
        return getEntry(key) != null;
    }

    public V get(Object key) {
        Node<K, V> n = getEntry(key);
        return n == null ? null : n.value;
    }

    public V put(K key, V value) {
        if (root == null) {
            // Type (and null) check, as Java does for the first key.
            compare(key, key);
        } else if (key == null && comparator == null) {
            throw new NullPointerException();
        }
        found = false;
        oldValue = null;
        root = insert(root, key, value);
        V old = oldValue;
        oldValue = null;
        if (!found) {
            size++;
            modCount++;
        }
        return old;
    }

    private static int height(Node<?, ?> n) {
        return n == null ? 0 : n.height;
    }

    private static void update(Node<?, ?> n) {
        n.height = Math.max(height(n.left), height(n.right)) + 1;
    }

    private static <K, V> Node<K, V> rotateRight(Node<K, V> n) {
        Node<K, V> l = n.left;
        n.left = l.right;
        l.right = n;
        update(n);
        update(l);
        return l;
    }

    private static <K, V> Node<K, V> rotateLeft(Node<K, V> n) {
        Node<K, V> r = n.right;
        n.right = r.left;
        r.left = n;
        update(n);
        update(r);
        return r;
    }

    private static <K, V> Node<K, V> balance(Node<K, V> n) {
        update(n);
        int b = height(n.left) - height(n.right);
        if (b > 1) {
            if (height(n.left.left) < height(n.left.right)) {
                n.left = rotateLeft(n.left);
            }
            return rotateRight(n);
        }
        if (b < -1) {
            if (height(n.right.right) < height(n.right.left)) {
                n.right = rotateRight(n.right);
            }
            return rotateLeft(n);
        }
        return n;
    }

    private Node<K, V> insert(Node<K, V> n, K key, V value) {
        if (n == null) {
            return new Node<K, V>(key, value);
        }
        int c = compare(key, n.key);
        if (c < 0) {
            n.left = insert(n.left, key, value);
        } else if (c > 0) {
            n.right = insert(n.right, key, value);
        } else {
            found = true;
            oldValue = n.setValue(value);
            return n;
        }
        return balance(n);
    }

    public V remove(Object key) {
        if (root == null) {
            return null;
        }
        if (key == null && comparator == null) {
            throw new NullPointerException();
        }
        found = false;
        oldValue = null;
        root = delete(root, key);
        V old = oldValue;
        oldValue = null;
        if (found) {
            size--;
            modCount++;
        }
        return old;
    }

    private Node<K, V> delete(Node<K, V> n, Object key) {
        if (n == null) {
            return null;
        }
        int c = compare(key, n.key);
        if (c < 0) {
            n.left = delete(n.left, key);
        } else if (c > 0) {
            n.right = delete(n.right, key);
        } else {
            found = true;
            oldValue = n.value;
            if (n.left == null) {
                return n.right;
            }
            if (n.right == null) {
                return n.left;
            }
            // Put the successor node (not just its key) in n's place, so
            // entries held by iterators stay valid.
            Node<K, V> succ = n.right;
            while (succ.left != null) {
                succ = succ.left;
            }
            Node<K, V> right = deleteMin(n.right);
            succ.right = right;
            succ.left = n.left;
            n.left = null;
            n.right = null;
            return balance(succ);
        }
        return balance(n);
    }

    private static <K, V> Node<K, V> deleteMin(Node<K, V> n) {
        if (n.left == null) {
            return n.right;
        }
        n.left = deleteMin(n.left);
        return balance(n);
    }

    public void clear() {
        modCount++;
        size = 0;
        root = null;
    }

    public void putAll(Map<? extends K, ? extends V> m) {
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    final Node<K, V> firstNode() {
        Node<K, V> n = root;
        if (n != null) {
            while (n.left != null) {
                n = n.left;
            }
        }
        return n;
    }

    final Node<K, V> lastNode() {
        Node<K, V> n = root;
        if (n != null) {
            while (n.right != null) {
                n = n.right;
            }
        }
        return n;
    }

    // The node with the least key above (or at, if inclusive) key.
    final Node<K, V> ceilingNode(Object key, boolean inclusive) {
        Node<K, V> best = null;
        Node<K, V> n = root;
        while (n != null) {
            int c = compare(key, n.key);
            if (c < 0 || (c == 0 && inclusive)) {
                if (c == 0) {
                    return n;
                }
                best = n;
                n = n.left;
            } else {
                n = n.right;
            }
        }
        return best;
    }

    // The node with the greatest key below (or at, if inclusive) key.
    final Node<K, V> floorNode(Object key, boolean inclusive) {
        Node<K, V> best = null;
        Node<K, V> n = root;
        while (n != null) {
            int c = compare(key, n.key);
            if (c > 0 || (c == 0 && inclusive)) {
                if (c == 0) {
                    return n;
                }
                best = n;
                n = n.right;
            } else {
                n = n.left;
            }
        }
        return best;
    }

    private static <K> K keyOrNull(Node<K, ?> n) {
        return n == null ? null : n.key;
    }

    private static <K> K keyOrThrow(Node<K, ?> n) {
        if (n == null) {
            throw new NoSuchElementException();
        }
        return n.key;
    }

    private static <K, V> Map.Entry<K, V> snapshot(Node<K, V> n) {
        return n == null ? null : new AbstractMap.SimpleImmutableEntry<K, V>(n.key, n.value);
    }

    public K firstKey() {
        return keyOrThrow(firstNode());
    }

    public K lastKey() {
        return keyOrThrow(lastNode());
    }

    public Map.Entry<K, V> firstEntry() {
        return snapshot(firstNode());
    }

    public Map.Entry<K, V> lastEntry() {
        return snapshot(lastNode());
    }

    public Map.Entry<K, V> pollFirstEntry() {
        Node<K, V> n = firstNode();
        Map.Entry<K, V> e = snapshot(n);
        if (n != null) {
            remove(n.key);
        }
        return e;
    }

    public Map.Entry<K, V> pollLastEntry() {
        Node<K, V> n = lastNode();
        Map.Entry<K, V> e = snapshot(n);
        if (n != null) {
            remove(n.key);
        }
        return e;
    }

    public Map.Entry<K, V> ceilingEntry(K key) {
        return snapshot(ceilingNode(key, true));
    }

    public K ceilingKey(K key) {
        return keyOrNull(ceilingNode(key, true));
    }

    public Map.Entry<K, V> higherEntry(K key) {
        return snapshot(ceilingNode(key, false));
    }

    public K higherKey(K key) {
        return keyOrNull(ceilingNode(key, false));
    }

    public Map.Entry<K, V> floorEntry(K key) {
        return snapshot(floorNode(key, true));
    }

    public K floorKey(K key) {
        return keyOrNull(floorNode(key, true));
    }

    public Map.Entry<K, V> lowerEntry(K key) {
        return snapshot(floorNode(key, false));
    }

    public K lowerKey(K key) {
        return keyOrNull(floorNode(key, false));
    }

    /** A copy of the entries with keys in [fromKey, toKey). */
    public SortedMap<K, V> subMap(K fromKey, K toKey) {
        if (compare(fromKey, toKey) > 0) {
            throw new IllegalArgumentException("fromKey > toKey");
        }
        return copyRange(fromKey, true, toKey, true);
    }

    /** A copy of the entries with keys below toKey. */
    public SortedMap<K, V> headMap(K toKey) {
        return copyRange(null, false, toKey, true);
    }

    /** A copy of the entries with keys at or above fromKey. */
    public SortedMap<K, V> tailMap(K fromKey) {
        return copyRange(fromKey, true, null, false);
    }

    private TreeMap<K, V> copyRange(K from, boolean hasFrom, K to, boolean hasTo) {
        TreeMap<K, V> m = new TreeMap<K, V>(comparator);
        Node<K, V> n = hasFrom ? ceilingNode(from, true) : firstNode();
        while (n != null && (!hasTo || compare(n.key, to) < 0)) {
            m.put(n.key, n.value);
            n = ceilingNode(n.key, false);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    public Object clone() {
        TreeMap<K, V> c;
        try {
            c = (TreeMap<K, V>) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        c.root = null;
        c.size = 0;
        c.modCount = 0;
        c.entrySet = null;
        for (Node<K, V> n = firstNode(); n != null; n = ceilingNode(n.key, false)) {
            c.put(n.key, n.value);
        }
        return c;
    }

    /** Iterates in ascending (or descending) key order. */
    final class NodeIterator implements Iterator<Node<K, V>> {
        private Node<K, V> next;
        private Node<K, V> lastReturned;
        private int expectedModCount = modCount;
        private final boolean descending;

        NodeIterator(boolean descending) {
            this.descending = descending;
            next = descending ? lastNode() : firstNode();
        }

        public boolean hasNext() {
            return next != null;
        }

        public Node<K, V> next() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            Node<K, V> n = next;
            if (n == null) {
                throw new NoSuchElementException();
            }
            lastReturned = n;
            next = descending ? floorNode(n.key, false) : ceilingNode(n.key, false);
            return n;
        }

        public void remove() {
            if (lastReturned == null) {
                throw new IllegalStateException();
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            TreeMap.this.remove(lastReturned.key);
            lastReturned = null;
            expectedModCount = modCount;
        }
    }

    public Set<Map.Entry<K, V>> entrySet() {
        Set<Map.Entry<K, V>> es = entrySet;
        if (es == null) {
            es = new AbstractSet<Map.Entry<K, V>>() {
                public int size() {
                    return size;
                }

                public void clear() {
                    TreeMap.this.clear();
                }

                public Iterator<Map.Entry<K, V>> iterator() {
                    final NodeIterator it = new NodeIterator(false);
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
                    Node<K, V> n = getEntry(e.getKey());
                    return n != null && Objects.equals(n.value, e.getValue());
                }

                public boolean remove(Object o) {
                    if (!contains(o)) {
                        return false;
                    }
                    TreeMap.this.remove(((Map.Entry<?, ?>) o).getKey());
                    return true;
                }
            };
            entrySet = es;
        }
        return es;
    }

    Iterator<K> keyIterator(boolean descending) {
        final NodeIterator it = new NodeIterator(descending);
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

    public Set<K> keySet() {
        Set<K> ks = keySet;
        if (ks == null) {
            ks = new AbstractSet<K>() {
                public int size() {
                    return size;
                }

                public void clear() {
                    TreeMap.this.clear();
                }

                public Iterator<K> iterator() {
                    return keyIterator(false);
                }

                public boolean contains(Object o) {
                    return containsKey(o);
                }

                public boolean remove(Object o) {
                    int before = size;
                    TreeMap.this.remove(o);
                    return size != before;
                }
            };
            keySet = ks;
        }
        return ks;
    }

    public Set<K> descendingKeySet() {
        return new AbstractSet<K>() {
            public int size() {
                return size;
            }

            public Iterator<K> iterator() {
                return keyIterator(true);
            }

            public boolean contains(Object o) {
                return containsKey(o);
            }
        };
    }
}
