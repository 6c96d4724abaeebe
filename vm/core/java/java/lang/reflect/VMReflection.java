package java.lang.reflect;

/**
 * The VM's side of reflection. A member is named by its declaring class
 * and its index ("slot") in the runtime's field or method table of that
 * class; the natives read those tables and move raw values, and this class
 * does the checks, widening, boxing and unboxing in Java. Primitive values
 * travel as longs: integral kinds sign-extended (char and boolean
 * zero-extended), float as its raw bits in the low word, double as its
 * raw bits. java.lang.Class reaches it through the public static methods.
 */
public final class VMReflection {
    private VMReflection() {
    }

    static native int count(Class<?> c, boolean fields);

    static native String name(Class<?> c, int slot, boolean field);

    static native int modifiers(Class<?> c, int slot, boolean field);

    /** Returns the field's byte offset in its object (statics: in the Class object). */
    static native int offset(Class<?> c, int slot);

    static native Class<?> fieldType(Class<?> c, int slot);

    static native Class<?> returnType(Class<?> c, int slot);

    static native Class<?>[] parameterTypes(Class<?> c, int slot);

    static native Object getRef(Class<?> c, int slot, Object obj);

    static native long getPrim(Class<?> c, int slot, Object obj);

    static native void setRef(Class<?> c, int slot, Object obj, Object value);

    static native void setPrim(Class<?> c, int slot, Object obj, long value);

    static native Object invoke(Class<?> c, int slot, Object receiver, long[] prims, Object[] refs, long[] primResult);

    static native Object newInstance(Class<?> c, int slot, long[] prims, Object[] refs);

    static native void ensureInitialized(Class<?> c);

    /** Reports whether the caller of reflection may access a member of decl with these flags on obj. */
    static native boolean canAccess(Class<?> decl, int flags, Object obj);

    /** Returns the name of the class that called reflection. */
    static native String callerName();

    /**
     * Returns the runtime-visible annotations of c (kind 0), its field
     * (1) or method (2) at slot, or parameter param of that method (3),
     * each as {annotation class, name, value, ...}.
     */
    static native Object[] annotations(Class<?> c, int kind, int slot, int param);

    /** Returns the defaults of annotation type c as {c, name, value, ...}, or null. */
    static native Object[] annotationDefaults(Class<?> c);

    /** Returns the annotations declared on c. */
    public static java.lang.annotation.Annotation[] classAnnotations(Class<?> c) {
        return AnnotationHandler.toAnnotations(annotations(c, 0, 0, 0));
    }

    /** Returns the annotation of type t in list, or null. */
    public static <A extends java.lang.annotation.Annotation> A find(java.lang.annotation.Annotation[] list, Class<A> t) {
        if (t == null) {
            throw new NullPointerException("annotationType == null");
        }
        for (java.lang.annotation.Annotation a : list) {
            if (a.annotationType() == t) {
                return t.cast(a);
            }
        }
        return null;
    }

    /** Returns the generic signature of c (kind 0), or its field (1) or method (2) at slot, or null. */
    public static native String signature(Class<?> c, int kind, int slot);

    /** Returns the slot of the method or constructor a local or anonymous class c is declared in, or -1. */
    static native int enclosingMethodSlot(Class<?> c);

    /** Returns the member classes c declares (dalvik.annotation.MemberClasses). */
    public static native Class<?>[] memberClasses(Class<?> c);

    /** Returns the method (constructors: null) a local or anonymous class c is declared in. */
    public static Method enclosingMethod(Class<?> c) {
        int slot = enclosingMethodSlot(c);
        if (slot < 0) {
            return null;
        }
        Class<?> k = enclosingClass(c, false);
        return name(k, slot, false).equals("<init>") ? null : new Method(k, slot);
    }

    /** Returns the constructor a local or anonymous class c is declared in, or null. */
    public static Constructor<?> enclosingConstructor(Class<?> c) {
        int slot = enclosingMethodSlot(c);
        if (slot < 0) {
            return null;
        }
        Class<?> k = enclosingClass(c, false);
        return name(k, slot, false).equals("<init>") ? new Constructor<Object>(k, slot) : null;
    }

    /** Returns the class a descriptor names, loaded but not initialised, or null. */
    static native Class<?> loadType(String descriptor);

    /** Returns the exceptions the method at slot of c declares. */
    static native Class<?>[] exceptionTypes(Class<?> c, int slot);

    /** Returns the parsed generic signature of class c, or null. */
    public static Object classSignature(Class<?> c) {
        String sig = signature(c, 0, 0);
        return sig == null ? null : Signatures.parseClass(sig, c);
    }

    public static TypeVariable<?>[] typeParameters(Object parsed) {
        return parsed == null ? new TypeVariable<?>[0] : ((Signatures.Parsed) parsed).typeParameters.clone();
    }

    public static Type genericSuperclass(Object parsed, Class<?> c) {
        return parsed == null ? c.getSuperclass() : ((Signatures.Parsed) parsed).superclass;
    }

    public static Type[] genericInterfaces(Object parsed, Class<?> c) {
        return parsed == null ? c.getInterfaces() : ((Signatures.Parsed) parsed).interfaces.clone();
    }

    /**
     * Returns the annotations of type t in declared, directly present or
     * inside a directly present container of t's @Repeatable, in order.
     */
    @SuppressWarnings("unchecked")
    public static <A extends java.lang.annotation.Annotation> A[] byType(java.lang.annotation.Annotation[] declared, Class<A> t) {
        if (t == null) {
            throw new NullPointerException("annotationClass == null");
        }
        java.util.ArrayList<Object> out = new java.util.ArrayList<Object>();
        for (java.lang.annotation.Annotation a : declared) {
            if (a.annotationType() == t) {
                out.add(a);
            }
        }
        java.lang.annotation.Repeatable r = t.getAnnotation(java.lang.annotation.Repeatable.class);
        if (r != null) {
            for (java.lang.annotation.Annotation a : declared) {
                if (a.annotationType() == r.value()) {
                    try {
                        Object[] inner = (Object[]) r.value().getMethod("value").invoke(a);
                        for (Object o : inner) {
                            out.add(o);
                        }
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("bad container annotation " + r.value().getName(), e);
                    }
                }
            }
        }
        A[] result = (A[]) Array.newInstance(t, out.size());
        for (int i = 0; i < result.length; i++) {
            result[i] = (A) out.get(i);
        }
        return result;
    }

    /** Returns the interfaces c declares, in declaration order. */
    public static native Class<?>[] interfaces(Class<?> c);

    /** Returns c's modifiers, from its InnerClass annotation for nested classes. */
    public static native int classModifiers(Class<?> c);

    /**
     * Returns the class c is declared in (from its EnclosingClass
     * annotation), or when declaringOnly is false and c is local or
     * anonymous, the class of its EnclosingMethod; null otherwise.
     */
    public static native Class<?> enclosingClass(Class<?> c, boolean declaringOnly);

    /** Reports whether c's InnerClass annotation has no name. */
    public static native boolean isAnonymous(Class<?> c);

    /** Returns the methods c declares, without constructors and initialisers. */
    public static Method[] declaredMethods(Class<?> c) {
        int n = count(c, false);
        int k = 0;
        Method[] all = new Method[n];
        for (int i = 0; i < n; i++) {
            if (name(c, i, false).charAt(0) != '<') {
                all[k++] = new Method(c, i);
            }
        }
        Method[] out = new Method[k];
        System.arraycopy(all, 0, out, 0, k);
        return out;
    }

    /** Returns the constructors c declares. */
    public static Constructor<?>[] declaredConstructors(Class<?> c) {
        int n = count(c, false);
        int k = 0;
        Constructor<?>[] all = new Constructor<?>[n];
        for (int i = 0; i < n; i++) {
            if (name(c, i, false).equals("<init>")) {
                all[k++] = new Constructor<Object>(c, i);
            }
        }
        Constructor<?>[] out = new Constructor<?>[k];
        System.arraycopy(all, 0, out, 0, k);
        return out;
    }

    /** Returns the fields c declares, static and instance. */
    public static Field[] declaredFields(Class<?> c) {
        int n = count(c, true);
        Field[] out = new Field[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Field(c, i);
        }
        return out;
    }

    // Primitive kinds in widening order (boolean widens to nothing).
    static final int BOOLEAN = 0, BYTE = 1, SHORT = 2, CHAR = 3, INT = 4, LONG = 5, FLOAT = 6, DOUBLE = 7;

    static int kind(Class<?> c) {
        if (c == int.class) {
            return INT;
        } else if (c == long.class) {
            return LONG;
        } else if (c == boolean.class) {
            return BOOLEAN;
        } else if (c == byte.class) {
            return BYTE;
        } else if (c == short.class) {
            return SHORT;
        } else if (c == char.class) {
            return CHAR;
        } else if (c == float.class) {
            return FLOAT;
        } else if (c == double.class) {
            return DOUBLE;
        }
        return -1;
    }

    /** Reports whether a value of kind from converts to kind to by identity or widening. */
    static boolean widens(int from, int to) {
        if (from == to) {
            return true;
        }
        if (from == BOOLEAN || to == BOOLEAN || to == CHAR || from > to) {
            return false;
        }
        return !(to == SHORT && from == CHAR);
    }

    /** Converts raw bits of kind from to raw bits of kind to (a widening the caller has checked). */
    static long widen(long raw, int from, int to) {
        if (from == to) {
            return raw;
        }
        if (to == FLOAT) {
            float f = from == LONG ? (float) raw : (float) (int) raw;
            return Float.floatToRawIntBits(f) & 0xffffffffL;
        }
        if (to == DOUBLE) {
            double d;
            if (from == FLOAT) {
                d = Float.intBitsToFloat((int) raw);
            } else {
                d = (double) raw;
            }
            return Double.doubleToRawLongBits(d);
        }
        return raw;
    }

    /** Returns the primitive kind of a box, or -1. */
    static int boxKind(Object o) {
        if (o instanceof Integer) {
            return INT;
        } else if (o instanceof Long) {
            return LONG;
        } else if (o instanceof Boolean) {
            return BOOLEAN;
        } else if (o instanceof Byte) {
            return BYTE;
        } else if (o instanceof Short) {
            return SHORT;
        } else if (o instanceof Character) {
            return CHAR;
        } else if (o instanceof Float) {
            return FLOAT;
        } else if (o instanceof Double) {
            return DOUBLE;
        }
        return -1;
    }

    /** Returns the raw bits of a box of kind k. */
    static long rawOf(Object o, int k) {
        switch (k) {
            case BOOLEAN:
                return ((Boolean) o).booleanValue() ? 1 : 0;
            case BYTE:
                return ((Byte) o).byteValue();
            case SHORT:
                return ((Short) o).shortValue();
            case CHAR:
                return ((Character) o).charValue();
            case INT:
                return ((Integer) o).intValue();
            case LONG:
                return ((Long) o).longValue();
            case FLOAT:
                return Float.floatToRawIntBits(((Float) o).floatValue()) & 0xffffffffL;
            default:
                return Double.doubleToRawLongBits(((Double) o).doubleValue());
        }
    }

    /** Boxes raw bits of kind k. */
    static Object box(long raw, int k) {
        switch (k) {
            case BOOLEAN:
                return Boolean.valueOf(raw != 0);
            case BYTE:
                return Byte.valueOf((byte) raw);
            case SHORT:
                return Short.valueOf((short) raw);
            case CHAR:
                return Character.valueOf((char) raw);
            case INT:
                return Integer.valueOf((int) raw);
            case LONG:
                return Long.valueOf(raw);
            case FLOAT:
                return Float.valueOf(Float.intBitsToFloat((int) raw));
            case DOUBLE:
                return Double.valueOf(Double.longBitsToDouble(raw));
            default:
                return null;
        }
    }

    static String typeName(Object o) {
        return o == null ? "null" : o.getClass().getName();
    }

    /**
     * Checks args against the parameter types and spreads them into prims
     * and refs; e names the call in IllegalArgumentException messages.
     */
    static void packArgs(Class<?>[] params, Object[] args, long[] prims, Object[] refs, Executable e) {
        checkCount(params, args);
        for (int i = 0; i < params.length; i++) {
            Class<?> p = params[i];
            Object a = args[i];
            if (p.isPrimitive()) {
                int to = kind(p);
                int from = boxKind(a);
                if (from < 0 || !widens(from, to)) {
                    throw new IllegalArgumentException(callName(e) + " argument " + (i + 1) + " has type " + p.getName() + ", got " + typeName(a));
                }
                prims[i] = widen(rawOf(a, from), from, to);
            } else {
                if (a != null && !p.isInstance(a)) {
                    throw new IllegalArgumentException(callName(e) + " argument " + (i + 1) + " has type " + p.getName() + ", got " + typeName(a));
                }
                refs[i] = a;
            }
        }
    }

    /** ART's name of a call in argument errors: "method Cls.name" or "constructor Cls". */
    static String callName(Executable e) {
        String c = e.getDeclaringClass().getName();
        return e instanceof Method ? "method " + c + "." + e.getName() : "constructor " + c;
    }

    static void checkCount(Class<?>[] params, Object[] args) {
        int got = args == null ? 0 : args.length;
        if (got != params.length) {
            throw new IllegalArgumentException("Wrong number of arguments; expected " + params.length + ", got " + got);
        }
    }

    static String typeNames(Class<?>[] types) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(types[i].getTypeName());
        }
        return sb.toString();
    }

    static boolean sameTypes(Class<?>[] a, Class<?>[] b) {
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
}
