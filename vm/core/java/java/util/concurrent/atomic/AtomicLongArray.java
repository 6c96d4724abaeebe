package java.util.concurrent.atomic;

/**
 * An array of long elements updated atomically. Every method locks the
 * array object, as the scalar atomics do.
 */
public class AtomicLongArray implements java.io.Serializable {
    private final long[] array;

    public AtomicLongArray(int length) {
        array = new long[length];
    }

    public AtomicLongArray(long[] array) {
        this.array = array.clone();
    }

    public final int length() {
        return array.length;
    }

    public final synchronized long get(int i) {
        return array[i];
    }

    public final synchronized void set(int i, long newValue) {
        array[i] = newValue;
    }

    public final void lazySet(int i, long newValue) {
        set(i, newValue);
    }

    public final synchronized long getAndSet(int i, long newValue) {
        long old = array[i];
        array[i] = newValue;
        return old;
    }

    public final synchronized boolean compareAndSet(int i, long expect, long update) {
        if (array[i] != expect) {
            return false;
        }
        array[i] = update;
        return true;
    }

    public final boolean weakCompareAndSet(int i, long expect, long update) {
        return compareAndSet(i, expect, update);
    }

    public final synchronized long getAndAdd(int i, long delta) {
        long old = array[i];
        array[i] = old + delta;
        return old;
    }

    public final synchronized long addAndGet(int i, long delta) {
        return array[i] += delta;
    }

    public final long getAndIncrement(int i) {
        return getAndAdd(i, 1);
    }

    public final long getAndDecrement(int i) {
        return getAndAdd(i, -1);
    }

    public final long incrementAndGet(int i) {
        return addAndGet(i, 1);
    }

    public final long decrementAndGet(int i) {
        return addAndGet(i, -1);
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
