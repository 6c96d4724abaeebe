package java.lang.reflect;

/** A constructor of a class, callable through {@link #newInstance}. */
public final class Constructor<T> extends Executable {
    Constructor(Class<?> declaringClass, int slot) {
        super(declaringClass, slot);
    }

    /** As on Android and the JVM, java.lang.Class's constructor cannot be made accessible. */
    void checkSetAccessible(boolean flag) {
        if (flag && declaringClass == Class.class) {
            throw new SecurityException("Cannot make a java.lang.Class constructor accessible");
        }
    }

    public String getName() {
        return declaringClass.getName();
    }

    @SuppressWarnings("unchecked")
    public Class<T> getDeclaringClass() {
        return (Class<T>) declaringClass;
    }

    /**
     * Creates an instance and runs this constructor on it with args unboxed
     * and widened; wraps what the constructor throws in an
     * InvocationTargetException.
     */
    @SuppressWarnings("unchecked")
    public T newInstance(Object... args)
            throws InstantiationException, IllegalAccessException, IllegalArgumentException, InvocationTargetException {
        if (Modifier.isAbstract(declaringClass.getModifiers())) {
            throw new InstantiationException("Can't instantiate abstract class " + declaringClass.getName());
        }
        Class<?>[] p = params();
        VMReflection.checkCount(p, args);
        checkAccess(declaringClass, modifiers, null, "constructor");
        long[] prims = new long[p.length];
        Object[] refs = new Object[p.length];
        VMReflection.packArgs(p, args, prims, refs, this);
        VMReflection.ensureInitialized(declaringClass);
        try {
            return (T) VMReflection.newInstance(declaringClass, slot, prims, refs);
        } catch (Throwable t) {
            throw new InvocationTargetException(t);
        }
    }

    public String toString() {
        StringBuilder sb = new StringBuilder();
        String mods = Modifier.toString(modifiers & Modifier.constructorModifiers());
        if (mods.length() > 0) {
            sb.append(mods).append(' ');
        }
        sb.append(declaringClass.getTypeName());
        sb.append('(').append(VMReflection.typeNames(params())).append(')');
        appendThrows(sb);
        return sb.toString();
    }
}
