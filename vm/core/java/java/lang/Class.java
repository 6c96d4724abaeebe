package java.lang;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.VMReflection;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * A class or interface, array type or primitive type at run time. The VM
 * represents classes itself, so this class declares no fields: everything
 * that needs the VM's class model is native.
 */
public final class Class<T> implements java.io.Serializable, java.lang.reflect.Type, java.lang.reflect.GenericDeclaration {
    private static final long serialVersionUID = 1L;

    private Class() {
    }

    public native String getName();

    public native Class<? super T> getSuperclass();

    public native boolean isArray();

    public native boolean isInterface();

    public native boolean isPrimitive();

    public native Class<?> getComponentType();

    public native boolean isInstance(Object obj);

    public native boolean isAssignableFrom(Class<?> cls);

    public native T newInstance() throws InstantiationException, IllegalAccessException;

    public static Class<?> forName(String className) throws ClassNotFoundException {
        return forName0(className, true, false);
    }

    /**
     * Loads a class through loader: null (or the boot class loader) sees
     * only the core library; every other loader delegates to the VM's one
     * application namespace unless it finds the class itself.
     */
    public static Class<?> forName(String name, boolean initialize, ClassLoader loader) throws ClassNotFoundException {
        if (loader == null || loader instanceof BootClassLoader) {
            return forName0(name, initialize, true);
        }
        if (loader == ClassLoader.getSystemClassLoader()) {
            return forName0(name, initialize, false);
        }
        return loader.loadClass(name);
    }

    private static native Class<?> forName0(String name, boolean initialize, boolean bootOnly) throws ClassNotFoundException;

    private native boolean isBootClass();

    /**
     * As on Android: the boot class loader for core-library classes, the
     * system class loader for the application's, null for primitive types;
     * an array's is its element type's.
     */
    public ClassLoader getClassLoader() {
        if (isArray()) {
            return getComponentType().getClassLoader();
        }
        if (isPrimitive()) {
            return null;
        }
        return isBootClass() ? BootClassLoader.getInstance() : ClassLoader.getSystemClassLoader();
    }

    /** Returns the array from the enum's static values(), or null for other classes. */
    private native Object[] enumValues0();

    public String getSimpleName() {
        if (isArray()) {
            return getComponentType().getSimpleName() + "[]";
        }
        String name = getName();
        int dot = name.lastIndexOf('.');
        String simple = name.substring(dot + 1);
        int dollar = simple.lastIndexOf('$');
        if (dollar < 0) {
            return simple;
        }
        simple = simple.substring(dollar + 1);
        // Anonymous classes are named Outer$1: their simple name is empty;
        // local classes are Outer$1Local: the digits are dropped.
        int i = 0;
        while (i < simple.length() && simple.charAt(i) >= '0' && simple.charAt(i) <= '9') {
            i++;
        }
        return simple.substring(i);
    }

    public String getCanonicalName() {
        if (isArray()) {
            String c = getComponentType().getCanonicalName();
            return c == null ? null : c + "[]";
        }
        return getName().replace('$', '.');
    }

    public String getTypeName() {
        if (isArray()) {
            return getComponentType().getTypeName() + "[]";
        }
        return getName();
    }

    public String toString() {
        if (isPrimitive()) {
            return getName();
        }
        return (isInterface() ? "interface " : "class ") + getName();
    }

    public boolean isEnum() {
        return getSuperclass() == Enum.class;
    }

    @SuppressWarnings("unchecked")
    public T[] getEnumConstants() {
        Object[] values = enumValues0();
        return values == null ? null : (T[]) values.clone();
    }

    public boolean desiredAssertionStatus() {
        return false;
    }

    @SuppressWarnings("unchecked")
    public T cast(Object obj) {
        if (obj != null && !isInstance(obj)) {
            throw new ClassCastException("Cannot cast " + obj.getClass().getName() + " to " + getName());
        }
        return (T) obj;
    }

    public String getPackageName() {
        Class<?> c = this;
        while (c.isArray()) {
            c = c.getComponentType();
        }
        if (c.isPrimitive()) {
            return "java.lang";
        }
        String name = c.getName();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    // Reflection: members come from java.lang.reflect.VMReflection, which
    // reads the VM's tables of the class.

    public Method[] getDeclaredMethods() throws SecurityException {
        return VMReflection.declaredMethods(this);
    }

    /** Returns the public methods of this class, its super classes and interfaces, most derived first. */
    public Method[] getMethods() throws SecurityException {
        ArrayList<Method> out = new ArrayList<Method>();
        collectPublicMethods(this, out);
        return out.toArray(new Method[out.size()]);
    }

    private static void collectPublicMethods(Class<?> c, ArrayList<Method> out) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            addPublicMethods(k, out);
        }
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                collectPublicMethods(i, out);
            }
        }
    }

    /** Adds k's public methods that no method already in out overrides. */
    private static void addPublicMethods(Class<?> k, ArrayList<Method> out) {
        int known = out.size();
        for (Method m : VMReflection.declaredMethods(k)) {
            if (!Modifier.isPublic(m.getModifiers())) {
                continue;
            }
            boolean hidden = false;
            for (int i = 0; i < known && !hidden; i++) {
                Method o = out.get(i);
                hidden = o.getName().equals(m.getName()) && o.getReturnType() == m.getReturnType()
                        && Arrays.equals(o.getParameterTypes(), m.getParameterTypes());
            }
            if (!hidden) {
                out.add(m);
            }
        }
    }

    public Method getDeclaredMethod(String name, Class<?>... parameterTypes) throws NoSuchMethodException, SecurityException {
        Method m = findMethod(VMReflection.declaredMethods(this), name, parameterTypes, false);
        if (m == null) {
            throw new NoSuchMethodException(getName() + "." + name + " " + Arrays.toString(parameterTypes));
        }
        return m;
    }

    public Method getMethod(String name, Class<?>... parameterTypes) throws NoSuchMethodException, SecurityException {
        if (name == null) {
            throw new NullPointerException("name == null");
        }
        for (Class<?> k = this; k != null; k = k.getSuperclass()) {
            Method m = findMethod(VMReflection.declaredMethods(k), name, parameterTypes, true);
            if (m != null) {
                return m;
            }
        }
        Method m = findInterfaceMethod(this, name, parameterTypes);
        if (m == null) {
            throw new NoSuchMethodException(getName() + "." + name + " " + Arrays.toString(parameterTypes));
        }
        return m;
    }

    private static Method findInterfaceMethod(Class<?> c, String name, Class<?>[] parameterTypes) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                Method m = findMethod(VMReflection.declaredMethods(i), name, parameterTypes, true);
                if (m == null) {
                    m = findInterfaceMethod(i, name, parameterTypes);
                }
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    /**
     * Returns the method of methods with this name and parameter types;
     * of several (covariant returns with bridges), the one with the most
     * specific return type.
     */
    private static Method findMethod(Method[] methods, String name, Class<?>[] parameterTypes, boolean publicOnly) {
        if (name == null) {
            throw new NullPointerException("name == null");
        }
        Method found = null;
        for (Method m : methods) {
            if (!m.getName().equals(name) || (publicOnly && !Modifier.isPublic(m.getModifiers()))) {
                continue;
            }
            if (!sameTypes(m.getParameterTypes(), parameterTypes)) {
                continue;
            }
            if (found == null || found.getReturnType().isAssignableFrom(m.getReturnType())) {
                found = m;
            }
        }
        return found;
    }

    private static boolean sameTypes(Class<?>[] a, Class<?>[] b) {
        int n = b == null ? 0 : b.length;
        if (a.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public Field[] getDeclaredFields() throws SecurityException {
        return VMReflection.declaredFields(this);
    }

    public Field getDeclaredField(String name) throws NoSuchFieldException, SecurityException {
        if (name == null) {
            throw new NullPointerException("name == null");
        }
        for (Field f : VMReflection.declaredFields(this)) {
            if (f.getName().equals(name)) {
                return f;
            }
        }
        // ART names the class by its descriptor.
        throw new NoSuchFieldException("No field " + name + " in class L" + getName().replace('.', '/') + ";");
    }

    /** Returns the public fields of this class, its interfaces and super classes, in Java's search order. */
    public Field[] getFields() throws SecurityException {
        ArrayList<Field> out = new ArrayList<Field>();
        collectPublicFields(this, out);
        return out.toArray(new Field[out.size()]);
    }

    private static void collectPublicFields(Class<?> c, ArrayList<Field> out) {
        for (Field f : VMReflection.declaredFields(c)) {
            if (Modifier.isPublic(f.getModifiers()) && !out.contains(f)) {
                out.add(f);
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            collectPublicFields(i, out);
        }
        Class<?> s = c.getSuperclass();
        if (s != null) {
            collectPublicFields(s, out);
        }
    }

    public Field getField(String name) throws NoSuchFieldException, SecurityException {
        if (name == null) {
            throw new NullPointerException("name == null");
        }
        for (Field f : getFields()) {
            if (f.getName().equals(name)) {
                return f;
            }
        }
        throw new NoSuchFieldException(name);
    }

    public Constructor<?>[] getDeclaredConstructors() throws SecurityException {
        return VMReflection.declaredConstructors(this);
    }

    public Constructor<?>[] getConstructors() throws SecurityException {
        ArrayList<Constructor<?>> out = new ArrayList<Constructor<?>>();
        for (Constructor<?> c : VMReflection.declaredConstructors(this)) {
            if (Modifier.isPublic(c.getModifiers())) {
                out.add(c);
            }
        }
        return out.toArray(new Constructor<?>[out.size()]);
    }

    public Constructor<T> getDeclaredConstructor(Class<?>... parameterTypes) throws NoSuchMethodException, SecurityException {
        return findConstructor(parameterTypes, false);
    }

    public Constructor<T> getConstructor(Class<?>... parameterTypes) throws NoSuchMethodException, SecurityException {
        return findConstructor(parameterTypes, true);
    }

    @SuppressWarnings("unchecked")
    private Constructor<T> findConstructor(Class<?>[] parameterTypes, boolean publicOnly) throws NoSuchMethodException {
        for (Constructor<?> c : VMReflection.declaredConstructors(this)) {
            if ((!publicOnly || Modifier.isPublic(c.getModifiers())) && sameTypes(c.getParameterTypes(), parameterTypes)) {
                return (Constructor<T>) c;
            }
        }
        throw new NoSuchMethodException(getName() + ".<init> " + Arrays.toString(parameterTypes));
    }

    public Class<?>[] getInterfaces() {
        if (isPrimitive()) {
            return new Class<?>[0];
        }
        return VMReflection.interfaces(this);
    }

    public int getModifiers() {
        if (isArray()) {
            int c = getComponentType().getModifiers();
            return (c & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE)) | Modifier.ABSTRACT | Modifier.FINAL;
        }
        if (isPrimitive()) {
            return Modifier.PUBLIC | Modifier.ABSTRACT | Modifier.FINAL;
        }
        // The synchronized bit is ACC_SUPER in a class's flags, never a modifier.
        return VMReflection.classModifiers(this) & ~Modifier.SYNCHRONIZED & 0x7fff;
    }

    public boolean isAnonymousClass() {
        return !isArray() && !isPrimitive() && VMReflection.isAnonymous(this);
    }

    public Class<?> getEnclosingClass() {
        if (isArray() || isPrimitive()) {
            return null;
        }
        return VMReflection.enclosingClass(this, false);
    }

    public Class<?> getDeclaringClass() {
        if (isArray() || isPrimitive() || isAnonymousClass()) {
            return null;
        }
        return VMReflection.enclosingClass(this, true);
    }

    public Method getEnclosingMethod() {
        return isArray() || isPrimitive() ? null : VMReflection.enclosingMethod(this);
    }

    public Constructor<?> getEnclosingConstructor() {
        return isArray() || isPrimitive() ? null : VMReflection.enclosingConstructor(this);
    }

    public Class<?>[] getDeclaredClasses() {
        return isArray() || isPrimitive() ? new Class<?>[0] : VMReflection.memberClasses(this);
    }

    /** Returns the public member classes of this class and its super classes. */
    public Class<?>[] getClasses() {
        ArrayList<Class<?>> out = new ArrayList<Class<?>>();
        for (Class<?> k = this; k != null; k = k.getSuperclass()) {
            for (Class<?> m : k.getDeclaredClasses()) {
                if (Modifier.isPublic(m.getModifiers())) {
                    out.add(m);
                }
            }
        }
        return out.toArray(new Class<?>[out.size()]);
    }

    public boolean isMemberClass() {
        return getDeclaringClass() != null;
    }

    public boolean isLocalClass() {
        return getEnclosingClass() != null && getDeclaringClass() == null && !isAnonymousClass();
    }

    public boolean isSynthetic() {
        return !isArray() && !isPrimitive() && (VMReflection.classModifiers(this) & 0x1000) != 0;
    }

    public boolean isAnnotation() {
        return !isArray() && !isPrimitive() && (VMReflection.classModifiers(this) & 0x2000) != 0;
    }

    public java.lang.annotation.Annotation[] getDeclaredAnnotations() {
        if (isArray() || isPrimitive()) {
            return new java.lang.annotation.Annotation[0];
        }
        return VMReflection.classAnnotations(this);
    }

    /** Returns the declared annotations and the @Inherited ones of the super classes. */
    public java.lang.annotation.Annotation[] getAnnotations() {
        ArrayList<java.lang.annotation.Annotation> out = new ArrayList<java.lang.annotation.Annotation>();
        for (java.lang.annotation.Annotation a : getDeclaredAnnotations()) {
            out.add(a);
        }
        for (Class<?> k = getSuperclass(); k != null; k = k.getSuperclass()) {
            for (java.lang.annotation.Annotation a : k.getDeclaredAnnotations()) {
                Class<?> t = a.annotationType();
                if (!t.isAnnotationPresent(java.lang.annotation.Inherited.class)) {
                    continue;
                }
                boolean present = false;
                for (java.lang.annotation.Annotation b : out) {
                    present |= b.annotationType() == t;
                }
                if (!present) {
                    out.add(a);
                }
            }
        }
        return out.toArray(new java.lang.annotation.Annotation[out.size()]);
    }

    public <A extends java.lang.annotation.Annotation> A getAnnotation(Class<A> annotationClass) {
        return VMReflection.find(getAnnotations(), annotationClass);
    }

    public <A extends java.lang.annotation.Annotation> A getDeclaredAnnotation(Class<A> annotationClass) {
        return VMReflection.find(getDeclaredAnnotations(), annotationClass);
    }

    public <A extends java.lang.annotation.Annotation> A[] getDeclaredAnnotationsByType(Class<A> annotationClass) {
        return VMReflection.byType(getDeclaredAnnotations(), annotationClass);
    }

    /** The declared ones, or for an @Inherited type without any, the super class's. */
    public <A extends java.lang.annotation.Annotation> A[] getAnnotationsByType(Class<A> annotationClass) {
        A[] declared = getDeclaredAnnotationsByType(annotationClass);
        Class<?> s = getSuperclass();
        if (declared.length > 0 || s == null || !annotationClass.isAnnotationPresent(java.lang.annotation.Inherited.class)) {
            return declared;
        }
        return s.getAnnotationsByType(annotationClass);
    }

    public boolean isAnnotationPresent(Class<? extends java.lang.annotation.Annotation> annotationClass) {
        return getAnnotation(annotationClass) != null;
    }

    @SuppressWarnings("unchecked")
    public java.lang.reflect.TypeVariable<Class<T>>[] getTypeParameters() {
        if (isArray() || isPrimitive()) {
            return (java.lang.reflect.TypeVariable<Class<T>>[]) new java.lang.reflect.TypeVariable<?>[0];
        }
        return (java.lang.reflect.TypeVariable<Class<T>>[]) VMReflection.typeParameters(VMReflection.classSignature(this));
    }

    public java.lang.reflect.Type getGenericSuperclass() {
        if (isArray() || isPrimitive() || isInterface()) {
            return getSuperclass();
        }
        return VMReflection.genericSuperclass(VMReflection.classSignature(this), this);
    }

    public java.lang.reflect.Type[] getGenericInterfaces() {
        if (isArray() || isPrimitive()) {
            return getInterfaces();
        }
        return VMReflection.genericInterfaces(VMReflection.classSignature(this), this);
    }
}
