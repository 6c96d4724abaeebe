package java.lang.reflect;

/** Something that declares type variables: a class, method or constructor. */
public interface GenericDeclaration {
    TypeVariable<?>[] getTypeParameters();
}
