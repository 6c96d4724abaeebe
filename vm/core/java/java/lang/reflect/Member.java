package java.lang.reflect;

/** A field, method or constructor of a class. */
public interface Member {
    /** Selects public members, including inherited ones. */
    int PUBLIC = 0;

    /** Selects declared members of any access. */
    int DECLARED = 1;

    Class<?> getDeclaringClass();

    String getName();

    int getModifiers();

    boolean isSynthetic();
}
