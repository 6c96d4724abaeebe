package java.lang.ref;

/**
 * A reference that never returns its referent; it is cleared and
 * enqueued once the referent is unreachable (there is no finalization).
 */
public class PhantomReference<T> extends Reference<T> {
    public PhantomReference(T referent, ReferenceQueue<? super T> q) {
        super(referent, q);
    }

    public T get() {
        return null;
    }
}
