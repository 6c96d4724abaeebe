package java.util.concurrent.atomic;

/**
 * A int updated atomically. Every method locks the object: the VM has no
 * compare-and-swap primitive for Java code, and monitors are enough here.
 */
public class AtomicInteger extends Number implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private volatile int value;

    public AtomicInteger(int initialValue) {
        value = initialValue;
    }

    public AtomicInteger() {
    }

    public final int get() {
        return value;
    }

    public final synchronized void set(int newValue) {
        value = newValue;
    }

    public final void lazySet(int newValue) {
        set(newValue);
    }

    public final synchronized int getAndSet(int newValue) {
        int old = value;
        value = newValue;
        return old;
    }

    public final synchronized boolean compareAndSet(int expect, int update) {
        if (value != expect) {
            return false;
        }
        value = update;
        return true;
    }

    public final boolean weakCompareAndSet(int expect, int update) {
        return compareAndSet(expect, update);
    }

    public final synchronized int getAndAdd(int delta) {
        int old = value;
        value = old + delta;
        return old;
    }

    public final synchronized int addAndGet(int delta) {
        value += delta;
        return value;
    }

    public final int getAndIncrement() {
        return getAndAdd(1);
    }

    public final int getAndDecrement() {
        return getAndAdd(-1);
    }

    public final int incrementAndGet() {
        return addAndGet(1);
    }

    public final int decrementAndGet() {
        return addAndGet(-1);
    }

    public String toString() {
        return Integer.toString(get());
    }

    public int intValue() {
        return (int) get();
    }

    public long longValue() {
        return get();
    }

    public float floatValue() {
        return (float) get();
    }

    public double doubleValue() {
        return (double) get();
    }
}
