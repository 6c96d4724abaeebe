package java.lang.annotation;

/** Marks annotation types that subclasses inherit. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.ANNOTATION_TYPE)
public @interface Inherited {
}
