package java.util;

/** A collection without duplicates. */
public interface Set<E> extends Collection<E> {
}
