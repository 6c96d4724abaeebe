package java.lang;

import java.util.Iterator;

/** Objects usable in the enhanced for statement. */
public interface Iterable<T> {
    Iterator<T> iterator();
}
