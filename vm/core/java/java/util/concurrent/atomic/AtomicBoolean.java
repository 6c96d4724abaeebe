package java.util.concurrent.atomic;

/** A boolean updated atomically; every method locks the object. */
public class AtomicBoolean implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private volatile boolean value;

    public AtomicBoolean(boolean initialValue) {
        value = initialValue;
    }

    public AtomicBoolean() {
    }

    public final boolean get() {
        return value;
    }

    public final synchronized void set(boolean newValue) {
        value = newValue;
    }

    public final void lazySet(boolean newValue) {
        set(newValue);
    }

    public final synchronized boolean getAndSet(boolean newValue) {
        boolean old = value;
        value = newValue;
        return old;
    }

    public final synchronized boolean compareAndSet(boolean expect, boolean update) {
        if (value != expect) {
            return false;
        }
        value = update;
        return true;
    }

    public boolean weakCompareAndSet(boolean expect, boolean update) {
        return compareAndSet(expect, update);
    }

    public String toString() {
        return Boolean.toString(get());
    }
}
