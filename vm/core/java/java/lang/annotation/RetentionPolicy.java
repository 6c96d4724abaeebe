package java.lang.annotation;

/** Annotation retention policies. */
public enum RetentionPolicy {
    SOURCE,
    CLASS,
    RUNTIME
}
