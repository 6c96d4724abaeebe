package java.lang.reflect;

/** A method of a class or interface, callable through {@link #invoke}. */
public final class Method extends Executable {
    private Class<?> returnType;

    Method(Class<?> declaringClass, int slot) {
        super(declaringClass, slot);
    }

    public String getName() {
        return name;
    }

    public Class<?> getReturnType() {
        if (returnType == null) {
            returnType = VMReflection.returnType(declaringClass, slot);
        }
        return returnType;
    }

    /** Returns the default of an annotation member, or null. */
    public Object getDefaultValue() {
        return AnnotationHandler.defaultValue(this);
    }

    public Type getGenericReturnType() {
        Signatures.Parsed p = signature();
        return p == null ? getReturnType() : p.returnType;
    }

    public boolean isBridge() {
        return (modifiers & Modifier.BRIDGE) != 0;
    }

    public boolean isDefault() {
        return declaringClass.isInterface() && (modifiers & (Modifier.ABSTRACT | Modifier.STATIC | Modifier.PUBLIC)) == Modifier.PUBLIC;
    }

    /**
     * Calls the method on receiver (ignored for static methods; instance
     * methods are dispatched on its class) with args unboxed and widened
     * to the parameter types; wraps what the method throws in an
     * InvocationTargetException.
     */
    public Object invoke(Object receiver, Object... args)
            throws IllegalAccessException, IllegalArgumentException, InvocationTargetException {
        boolean isStatic = Modifier.isStatic(modifiers);
        if (isStatic) {
            // Initialisation errors are thrown as they are, not wrapped.
            VMReflection.ensureInitialized(declaringClass);
        } else {
            if (receiver == null) {
                throw new NullPointerException("null receiver");
            }
            if (!declaringClass.isInstance(receiver)) {
                throw new IllegalArgumentException("Expected receiver of type " + declaringClass.getName()
                        + ", but got " + receiver.getClass().getName());
            }
        }
        Class<?>[] p = params();
        VMReflection.checkCount(p, args);
        checkAccess(declaringClass, modifiers, receiver, "method");
        long[] prims = new long[p.length];
        Object[] refs = new Object[p.length];
        VMReflection.packArgs(p, args, prims, refs, this);
        Class<?> ret = getReturnType();
        long[] result = new long[1];
        Object r;
        try {
            r = VMReflection.invoke(declaringClass, slot, receiver, prims, refs, result);
        } catch (Throwable t) {
            throw new InvocationTargetException(t);
        }
        if (ret.isPrimitive()) {
            return VMReflection.box(result[0], VMReflection.kind(ret));
        }
        return r;
    }

    public String toString() {
        StringBuilder sb = new StringBuilder();
        String mods = Modifier.toString(modifiers & Modifier.methodModifiers());
        if (mods.length() > 0) {
            sb.append(mods).append(' ');
        }
        if (isDefault()) {
            sb.append("default ");
        }
        sb.append(getReturnType().getTypeName()).append(' ');
        sb.append(declaringClass.getTypeName()).append('.').append(name);
        sb.append('(').append(VMReflection.typeNames(params())).append(')');
        appendThrows(sb);
        return sb.toString();
    }
}
