package java.util.concurrent.atomic;

/** An object reference updated atomically; every method locks the object. */
public class AtomicReference<V> implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private volatile V value;

    public AtomicReference(V initialValue) {
        value = initialValue;
    }

    public AtomicReference() {
    }

    public final V get() {
        return value;
    }

    public final synchronized void set(V newValue) {
        value = newValue;
    }

    public final void lazySet(V newValue) {
        set(newValue);
    }

    public final synchronized V getAndSet(V newValue) {
        V old = value;
        value = newValue;
        return old;
    }

    /** Compares by identity, as the Java platform does. */
    public final synchronized boolean compareAndSet(V expect, V update) {
        if (value != expect) {
            return false;
        }
        value = update;
        return true;
    }

    public final boolean weakCompareAndSet(V expect, V update) {
        return compareAndSet(expect, update);
    }

    public String toString() {
        return String.valueOf(get());
    }
}
