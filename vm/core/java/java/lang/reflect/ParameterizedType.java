package java.lang.reflect;

/** A generic class applied to type arguments, such as {@code List<String>}. */
public interface ParameterizedType extends Type {
    Type[] getActualTypeArguments();

    Type getRawType();

    Type getOwnerType();
}
