package java.lang.reflect;

/** What methods and constructors share: a declaring class, a slot, parameters. */
public abstract class Executable extends AccessibleObject implements Member, GenericDeclaration {
    final Class<?> declaringClass;
    final int slot;
    final String name;
    final int modifiers;
    private Class<?>[] parameterTypes;

    Executable(Class<?> declaringClass, int slot) {
        this.declaringClass = declaringClass;
        this.slot = slot;
        this.name = VMReflection.name(declaringClass, slot, false);
        this.modifiers = VMReflection.modifiers(declaringClass, slot, false);
    }

    public Class<?> getDeclaringClass() {
        return declaringClass;
    }

    public int getModifiers() {
        return modifiers;
    }

    public boolean isSynthetic() {
        return (modifiers & Modifier.SYNTHETIC) != 0;
    }

    public boolean isVarArgs() {
        return (modifiers & Modifier.VARARGS) != 0;
    }

    /** The shared array; callers must not modify it. */
    Class<?>[] params() {
        if (parameterTypes == null) {
            parameterTypes = VMReflection.parameterTypes(declaringClass, slot);
        }
        return parameterTypes;
    }

    public Class<?>[] getParameterTypes() {
        return params().clone();
    }

    public int getParameterCount() {
        return params().length;
    }

    public Class<?>[] getExceptionTypes() {
        return VMReflection.exceptionTypes(declaringClass, slot);
    }

    /** The parsed generic signature, or null when the method has none. */
    Signatures.Parsed signature() {
        String sig = VMReflection.signature(declaringClass, 2, slot);
        return sig == null ? null : Signatures.parseMethod(sig, this);
    }

    public TypeVariable<?>[] getTypeParameters() {
        Signatures.Parsed p = signature();
        return p == null ? new TypeVariable<?>[0] : p.typeParameters;
    }

    public Type[] getGenericParameterTypes() {
        Signatures.Parsed p = signature();
        return p == null ? getParameterTypes() : p.parameters;
    }

    public Type[] getGenericExceptionTypes() {
        Signatures.Parsed p = signature();
        return p == null || p.exceptions.length == 0 ? getExceptionTypes() : p.exceptions;
    }

    /** Appends " throws A,B" for the declared exceptions. */
    void appendThrows(StringBuilder sb) {
        Class<?>[] ex = getExceptionTypes();
        if (ex.length > 0) {
            sb.append(" throws ");
            for (int i = 0; i < ex.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(ex[i].getTypeName());
            }
        }
    }

    public boolean equals(Object o) {
        if (!(o instanceof Executable)) {
            return false;
        }
        Executable e = (Executable) o;
        return e.declaringClass == declaringClass && e.slot == slot;
    }

    public int hashCode() {
        return declaringClass.getName().hashCode() ^ name.hashCode();
    }

    public java.lang.annotation.Annotation[] getDeclaredAnnotations() {
        return AnnotationHandler.toAnnotations(VMReflection.annotations(declaringClass, 2, slot, 0));
    }

    /** Returns each parameter's annotations. */
    public java.lang.annotation.Annotation[][] getParameterAnnotations() {
        int n = params().length;
        java.lang.annotation.Annotation[][] out = new java.lang.annotation.Annotation[n][];
        for (int i = 0; i < n; i++) {
            out[i] = AnnotationHandler.toAnnotations(VMReflection.annotations(declaringClass, 3, slot, i));
        }
        return out;
    }
}
