package java.security;

/** A computation run with privileges (AccessController.doPrivileged). */
public interface PrivilegedAction<T> {
    T run();
}
