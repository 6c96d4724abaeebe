package java.lang.annotation;

/** Marks annotation types that javadoc should document. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.ANNOTATION_TYPE)
public @interface Documented {
}
