package java.lang;

/**
 * A class or interface, array type or primitive type at run time. The VM
 * represents classes itself, so this class declares no fields: everything
 * that needs the VM's class model is native.
 */
public final class Class<T> implements java.io.Serializable {
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

    public static native Class<?> forName(String className) throws ClassNotFoundException;

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
}
