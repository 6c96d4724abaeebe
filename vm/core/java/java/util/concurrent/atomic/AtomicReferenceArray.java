package java.util.concurrent.atomic;

/**
 * An array of references updated atomically. Every method locks the
 * array object, as the scalar atomics do.
 */
public class AtomicReferenceArray<E> implements java.io.Serializable {
    private final E[] array;

    @SuppressWarnings("unchecked")
    public AtomicReferenceArray(int length) {
        array = (E[]) new Object[length];
    }

    @SuppressWarnings("unchecked")
    public AtomicReferenceArray(E[] array) {
        this.array = (E[]) java.util.Arrays.copyOf(array, array.length, Object[].class);
    }

    public final int length() {
        return array.length;
    }

    public final synchronized E get(int i) {
        return array[i];
    }

    public final synchronized void set(int i, E newValue) {
        array[i] = newValue;
    }

    public final void lazySet(int i, E newValue) {
        set(i, newValue);
    }

    public final synchronized E getAndSet(int i, E newValue) {
        E old = array[i];
        array[i] = newValue;
        return old;
    }

    public final synchronized boolean compareAndSet(int i, E expect, E update) {
        if (array[i] != expect) {
            return false;
        }
        array[i] = update;
        return true;
    }

    public final boolean weakCompareAndSet(int i, E expect, E update) {
        return compareAndSet(i, expect, update);
    }

    public synchronized String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < array.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(array[i]);
        }
        return sb.append(']').toString();
    }
}
