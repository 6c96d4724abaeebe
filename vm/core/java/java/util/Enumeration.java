package java.util;

/** The old-style iterator of Vector and Hashtable. */
public interface Enumeration<E> {
    boolean hasMoreElements();

    E nextElement();
}
