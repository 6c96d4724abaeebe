package java.util;

/** A skeleton Set. */
public abstract class AbstractSet<E> extends AbstractCollection<E> implements Set<E> {
    protected AbstractSet() {
    }

    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Set)) {
            return false;
        }
        Collection<?> c = (Collection<?>) o;
        if (c.size() != size()) {
            return false;
        }
        try {
            return containsAll(c);
        } catch (ClassCastException e) {
            return false;
        } catch (NullPointerException e) {
            return false;
        }
    }

    public int hashCode() {
        int h = 0;
        for (Iterator<E> it = iterator(); it.hasNext();) {
            E e = it.next();
            if (e != null) {
                h += e.hashCode();
            }
        }
        return h;
    }

    public boolean removeAll(Collection<?> c) {
        Objects.requireNonNull(c);
        boolean changed = false;
        if (size() > c.size()) {
            for (Object o : c) {
                if (remove(o)) {
                    changed = true;
                }
            }
        } else {
            for (Iterator<E> it = iterator(); it.hasNext();) {
                if (c.contains(it.next())) {
                    it.remove();
                    changed = true;
                }
            }
        }
        return changed;
    }
}
