package java.lang;

import java.util.HashMap;

/**
 * A variable with one value per thread, kept in a map keyed by Thread.
 * Values of ended threads are not released (a simplification).
 */
public class ThreadLocal<T> {
    private final HashMap<Thread, Object> values = new HashMap<Thread, Object>();

    public ThreadLocal() {
    }

    protected T initialValue() {
        return null;
    }

    @SuppressWarnings("unchecked")
    public T get() {
        Thread t = Thread.currentThread();
        synchronized (values) {
            if (values.containsKey(t)) {
                return (T) values.get(t);
            }
        }
        T v = initialValue();
        synchronized (values) {
            values.put(t, v);
        }
        return v;
    }

    public void set(T value) {
        Thread t = Thread.currentThread();
        synchronized (values) {
            values.put(t, value);
        }
    }

    public void remove() {
        Thread t = Thread.currentThread();
        synchronized (values) {
            values.remove(t);
        }
    }
}
