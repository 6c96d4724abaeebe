package java.lang;

/**
 * The root of the class hierarchy. Identity, monitors and copying are the
 * VM's business, so those methods are native.
 */
public class Object {
    public Object() {
    }

    public final native Class<?> getClass();

    public native int hashCode();

    public boolean equals(Object obj) {
        return this == obj;
    }

    protected native Object clone() throws CloneNotSupportedException;

    public String toString() {
        return getClass().getName() + "@" + Integer.toHexString(hashCode());
    }

    public final native void notify();

    public final native void notifyAll();

    public final void wait() throws InterruptedException {
        wait(0L, 0);
    }

    public final void wait(long millis) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        wait(millis, 0);
    }

    public final native void wait(long millis, int nanos) throws InterruptedException;

    protected void finalize() throws Throwable {
    }
}
