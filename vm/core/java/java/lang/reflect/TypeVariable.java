package java.lang.reflect;

/** A type variable such as {@code T}, with its bounds and declaring class, method or constructor. */
public interface TypeVariable<D extends GenericDeclaration> extends Type {
    Type[] getBounds();

    D getGenericDeclaration();

    String getName();
}
