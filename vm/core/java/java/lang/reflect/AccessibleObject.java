package java.lang.reflect;

/**
 * The accessible flag of a member: when set, reflective use skips the
 * access check (ART's rules, against the calling class) and final fields
 * may be set.
 */
public class AccessibleObject {
    boolean override;

    protected AccessibleObject() {
    }

    public void setAccessible(boolean flag) throws SecurityException {
        checkSetAccessible(flag);
        override = flag;
    }

    public static void setAccessible(AccessibleObject[] array, boolean flag) throws SecurityException {
        for (AccessibleObject o : array) {
            o.checkSetAccessible(flag);
        }
        for (AccessibleObject o : array) {
            o.override = flag;
        }
    }

    /** Throws SecurityException where the platform forbids making this accessible. */
    void checkSetAccessible(boolean flag) {
    }

    public boolean isAccessible() {
        return override;
    }

    /**
     * Throws IllegalAccessException unless this member (of decl, with the
     * given access flags; obj is the receiver or null) is accessible to the
     * code that called reflection. kind ("method", "field", "constructor")
     * names it in the message.
     */
    void checkAccess(Class<?> decl, int flags, Object obj, String kind) throws IllegalAccessException {
        if (override || (flags & Modifier.PUBLIC) != 0) {
            return;
        }
        if (!VMReflection.canAccess(decl, flags, obj)) {
            String access = Modifier.toString(flags & (Modifier.PRIVATE | Modifier.PROTECTED));
            throw new IllegalAccessException("Class " + VMReflection.callerName() + " cannot access "
                    + (access.length() > 0 ? access + " " : "package-private ") + kind + " " + this + " of class " + decl.getName());
        }
    }

    /**
     * Returns the annotations declared on this member (none here; Field and
     * Executable read them from the DEX). Members inherit no annotations, so
     * the lookups below all work on these.
     */
    public java.lang.annotation.Annotation[] getDeclaredAnnotations() {
        return new java.lang.annotation.Annotation[0];
    }

    public java.lang.annotation.Annotation[] getAnnotations() {
        return getDeclaredAnnotations();
    }

    public <A extends java.lang.annotation.Annotation> A getAnnotation(Class<A> annotationClass) {
        return VMReflection.find(getDeclaredAnnotations(), annotationClass);
    }

    public <A extends java.lang.annotation.Annotation> A getDeclaredAnnotation(Class<A> annotationClass) {
        return VMReflection.find(getDeclaredAnnotations(), annotationClass);
    }

    public <A extends java.lang.annotation.Annotation> A[] getDeclaredAnnotationsByType(Class<A> annotationClass) {
        return VMReflection.byType(getDeclaredAnnotations(), annotationClass);
    }

    public <A extends java.lang.annotation.Annotation> A[] getAnnotationsByType(Class<A> annotationClass) {
        return VMReflection.byType(getDeclaredAnnotations(), annotationClass);
    }

    public boolean isAnnotationPresent(Class<? extends java.lang.annotation.Annotation> annotationClass) {
        return getAnnotation(annotationClass) != null;
    }
}
