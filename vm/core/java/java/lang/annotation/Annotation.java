package java.lang.annotation;

/** The common interface of all annotation types. */
public interface Annotation {
    boolean equals(Object obj);

    int hashCode();

    String toString();

    Class<? extends Annotation> annotationType();
}
