package java.lang.reflect;

import java.lang.annotation.Annotation;
import java.util.Arrays;

/**
 * The invocation handler of an annotation instance: a proxy of the
 * annotation interface whose members return the values the DEX file
 * records, or the annotation type's defaults. equals, hashCode and
 * toString follow java.lang.annotation.Annotation's contract.
 */
final class AnnotationHandler implements InvocationHandler {
    private final Class<? extends Annotation> type;
    private final Method[] members;
    private final Object[] values;

    private AnnotationHandler(Class<? extends Annotation> type, Method[] members, Object[] values) {
        this.type = type;
        this.members = members;
        this.values = values;
    }

    /** Returns the annotations that VMReflection.annotations described. */
    static Annotation[] toAnnotations(Object[] raw) {
        if (raw == null) {
            return new Annotation[0];
        }
        Annotation[] out = new Annotation[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = create((Object[]) raw[i]);
        }
        return out;
    }

    /** Makes an annotation from {type, name, value, ...}. */
    @SuppressWarnings("unchecked")
    static Annotation create(Object[] desc) {
        Class<? extends Annotation> type = (Class<? extends Annotation>) desc[0];
        Method[] members = VMReflection.declaredMethods(type);
        Object[] defaults = VMReflection.annotationDefaults(type);
        Object[] values = new Object[members.length];
        for (int i = 0; i < members.length; i++) {
            String name = members[i].getName();
            Object v = lookup(desc, name);
            if (v == null) {
                v = lookup(defaults, name);
            }
            values[i] = v == null ? null : convert(v, members[i].getReturnType());
        }
        return (Annotation) Proxy.newInstance(new Class<?>[] {type}, new AnnotationHandler(type, members, values));
    }

    private static Object lookup(Object[] desc, String name) {
        if (desc == null) {
            return null;
        }
        for (int i = 1; i + 1 < desc.length; i += 2) {
            if (name.equals(desc[i])) {
                return desc[i + 1];
            }
        }
        return null;
    }

    /** Turns a value from the VM into the member's type: typed arrays and nested annotations. */
    static Object convert(Object v, Class<?> type) {
        if (type.isArray() && v instanceof Object[]) {
            Object[] src = (Object[]) v;
            Class<?> component = type.getComponentType();
            Object out = Array.newInstance(component, src.length);
            for (int i = 0; i < src.length; i++) {
                Array.set(out, i, convert(src[i], component));
            }
            return out;
        }
        if (type.isAnnotation() && v instanceof Object[]) {
            return create((Object[]) v);
        }
        return v;
    }

    /** Returns the default value of an annotation member, or null. */
    static Object defaultValue(Method m) {
        Object v = lookup(VMReflection.annotationDefaults(m.getDeclaringClass()), m.getName());
        return v == null ? null : convert(v, m.getReturnType());
    }

    public Object invoke(Object proxy, Method method, Object[] args) {
        String name = method.getName();
        int argc = args == null ? 0 : args.length;
        if (argc == 1 && name.equals("equals")) {
            return Boolean.valueOf(equalTo(args[0]));
        }
        if (argc == 0) {
            if (name.equals("annotationType")) {
                return type;
            } else if (name.equals("hashCode")) {
                return Integer.valueOf(hash());
            } else if (name.equals("toString")) {
                return describe();
            }
            for (int i = 0; i < members.length; i++) {
                if (members[i].getName().equals(name)) {
                    Object v = values[i];
                    if (v == null) {
                        throw new IllegalStateException(type.getName() + " is missing element " + name);
                    }
                    return v.getClass().isArray() ? cloneArray(v) : v;
                }
            }
        }
        throw new IllegalStateException("unexpected call of " + method + " on an annotation");
    }

    private static Object cloneArray(Object a) {
        int n = Array.getLength(a);
        Object out = Array.newInstance(a.getClass().getComponentType(), n);
        System.arraycopy(a, 0, out, 0, n);
        return out;
    }

    private boolean equalTo(Object o) {
        if (!type.isInstance(o)) {
            return false;
        }
        for (int i = 0; i < members.length; i++) {
            Object other;
            try {
                other = members[i].invoke(o);
            } catch (Exception e) {
                return false;
            }
            if (!valueEquals(values[i], other)) {
                return false;
            }
        }
        return true;
    }

    private static boolean valueEquals(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Object[] && b instanceof Object[]) {
            return Arrays.equals((Object[]) a, (Object[]) b);
        }
        if (a.getClass().isArray() && a.getClass() == b.getClass()) {
            int n = Array.getLength(a);
            if (n != Array.getLength(b)) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!Array.get(a, i).equals(Array.get(b, i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** The hash Annotation.hashCode specifies: the sum over members of (127 * name hash) ^ value hash. */
    private int hash() {
        int h = 0;
        for (int i = 0; i < members.length; i++) {
            h += (127 * members[i].getName().hashCode()) ^ valueHash(values[i]);
        }
        return h;
    }

    private static int valueHash(Object v) {
        if (v == null) {
            return 0;
        }
        if (!v.getClass().isArray()) {
            return v.hashCode();
        }
        // Arrays.hashCode of the array's type: the element hashes combined.
        int h = 1;
        int n = Array.getLength(v);
        for (int i = 0; i < n; i++) {
            Object e = Array.get(v, i);
            h = 31 * h + (e == null ? 0 : e.hashCode());
        }
        return h;
    }

    /** Android's form: @pkg.Type(name=value, ...). */
    private String describe() {
        StringBuilder sb = new StringBuilder("@").append(type.getName()).append('(');
        for (int i = 0; i < members.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(members[i].getName()).append('=');
            Object v = values[i];
            if (v instanceof Object[]) {
                sb.append(Arrays.toString((Object[]) v));
            } else if (v != null && v.getClass().isArray()) {
                sb.append('[');
                for (int j = 0; j < Array.getLength(v); j++) {
                    if (j > 0) {
                        sb.append(", ");
                    }
                    sb.append(Array.get(v, j));
                }
                sb.append(']');
            } else {
                sb.append(v);
            }
        }
        return sb.append(')').toString();
    }
}
