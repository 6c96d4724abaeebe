package java.security;

/** A privileged computation that may throw a checked exception. */
public interface PrivilegedExceptionAction<T> {
    T run() throws Exception;
}
