package java.lang.ref;

/**
 * A reference cleared only when memory runs out: the collector keeps a
 * softly reachable referent unless an allocation would otherwise fail.
 */
public class SoftReference<T> extends Reference<T> {
    public SoftReference(T referent) {
        super(referent);
    }

    public SoftReference(T referent, ReferenceQueue<? super T> q) {
        super(referent, q);
    }
}
