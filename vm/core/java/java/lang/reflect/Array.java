package java.lang.reflect;

/**
 * Creates and measures arrays of any type. javac compiles
 * {@code new int[3][4]} (multianewarray) into a call of
 * {@link #newInstance(Class, int...)}, so multi-dimensional arrays need it.
 * Element access is plain Java over the typed array classes.
 */
public final class Array {
    private Array() {
    }

    /** Returns a new array of componentType with the given length. */
    public static Object newInstance(Class<?> componentType, int length) throws NegativeArraySizeException {
        if (componentType == null) {
            throw new NullPointerException("componentType == null");
        }
        return newArray(componentType, length);
    }

    /** Returns a new multi-dimensional array; dimensions[0] is the outermost. */
    public static Object newInstance(Class<?> componentType, int... dimensions)
            throws IllegalArgumentException, NegativeArraySizeException {
        if (componentType == null) {
            throw new NullPointerException("componentType == null");
        }
        if (dimensions.length == 0 || dimensions.length > 255) {
            throw new IllegalArgumentException("Bad number of dimensions: " + dimensions.length);
        }
        for (int d : dimensions) {
            if (d < 0) {
                throw new NegativeArraySizeException(String.valueOf(d));
            }
        }
        return newMultiArray(componentType, dimensions);
    }

    /** Returns the length of an array of any type. */
    public static int getLength(Object array) {
        if (array == null) {
            throw new NullPointerException("array == null");
        }
        if (!array.getClass().isArray()) {
            throw new IllegalArgumentException("Not an array: " + array.getClass());
        }
        return length(array);
    }

    private static IllegalArgumentException notArray(Object array) {
        return new IllegalArgumentException("Not an array: " + array.getClass());
    }

    private static IllegalArgumentException mismatch() {
        return new IllegalArgumentException("argument type mismatch");
    }

    private static ArrayIndexOutOfBoundsException outOfBounds(int length, int index) {
        return new ArrayIndexOutOfBoundsException("length=" + length + "; index=" + index);
    }

    /** Returns element index of array, boxed for primitive arrays. */
    public static Object get(Object array, int index) throws IllegalArgumentException, ArrayIndexOutOfBoundsException {
        Object[] objects = asObjects(array);
        if (objects != null) {
            return objects[check(objects.length, index)];
        }
        Class<?> c = array.getClass().getComponentType();
        int k = VMReflection.kind(c);
        return VMReflection.box(raw(array, index, k), k);
    }

    /** Returns array as Object[] for arrays of references, null for primitive arrays. */
    private static Object[] asObjects(Object array) {
        if (array == null) {
            throw new NullPointerException("array == null");
        }
        if (array instanceof Object[]) {
            return (Object[]) array;
        }
        if (!array.getClass().isArray()) {
            throw notArray(array);
        }
        return null;
    }

    private static int check(int length, int index) {
        if (index < 0 || index >= length) {
            throw outOfBounds(length, index);
        }
        return index;
    }

    /** Reads element index of a primitive array of kind k as raw bits. */
    private static long raw(Object array, int index, int k) {
        switch (k) {
            case VMReflection.BOOLEAN: {
                boolean[] a = (boolean[]) array;
                return a[check(a.length, index)] ? 1 : 0;
            }
            case VMReflection.BYTE: {
                byte[] a = (byte[]) array;
                return a[check(a.length, index)];
            }
            case VMReflection.SHORT: {
                short[] a = (short[]) array;
                return a[check(a.length, index)];
            }
            case VMReflection.CHAR: {
                char[] a = (char[]) array;
                return a[check(a.length, index)];
            }
            case VMReflection.INT: {
                int[] a = (int[]) array;
                return a[check(a.length, index)];
            }
            case VMReflection.LONG: {
                long[] a = (long[]) array;
                return a[check(a.length, index)];
            }
            case VMReflection.FLOAT: {
                float[] a = (float[]) array;
                return Float.floatToRawIntBits(a[check(a.length, index)]) & 0xffffffffL;
            }
            default: {
                double[] a = (double[]) array;
                return Double.doubleToRawLongBits(a[check(a.length, index)]);
            }
        }
    }

    /** Writes raw bits into element index of a primitive array of kind k. */
    private static void store(Object array, int index, int k, long raw) {
        switch (k) {
            case VMReflection.BOOLEAN: {
                boolean[] a = (boolean[]) array;
                a[check(a.length, index)] = raw != 0;
                return;
            }
            case VMReflection.BYTE: {
                byte[] a = (byte[]) array;
                a[check(a.length, index)] = (byte) raw;
                return;
            }
            case VMReflection.SHORT: {
                short[] a = (short[]) array;
                a[check(a.length, index)] = (short) raw;
                return;
            }
            case VMReflection.CHAR: {
                char[] a = (char[]) array;
                a[check(a.length, index)] = (char) raw;
                return;
            }
            case VMReflection.INT: {
                int[] a = (int[]) array;
                a[check(a.length, index)] = (int) raw;
                return;
            }
            case VMReflection.LONG: {
                long[] a = (long[]) array;
                a[check(a.length, index)] = raw;
                return;
            }
            case VMReflection.FLOAT: {
                float[] a = (float[]) array;
                a[check(a.length, index)] = Float.intBitsToFloat((int) raw);
                return;
            }
            default: {
                double[] a = (double[]) array;
                a[check(a.length, index)] = Double.longBitsToDouble(raw);
            }
        }
    }

    /** Reads a primitive element widened to kind to. */
    private static long getAs(Object array, int index, int to) {
        if (asObjects(array) != null) {
            throw mismatch();
        }
        int from = VMReflection.kind(array.getClass().getComponentType());
        if (!VMReflection.widens(from, to)) {
            throw mismatch();
        }
        return VMReflection.widen(raw(array, index, from), from, to);
    }

    /** Writes raw bits of kind from into a primitive array, widening them. */
    private static void setAs(Object array, int index, long raw, int from) {
        if (asObjects(array) != null) {
            throw mismatch();
        }
        int to = VMReflection.kind(array.getClass().getComponentType());
        if (!VMReflection.widens(from, to)) {
            throw mismatch();
        }
        store(array, index, to, VMReflection.widen(raw, from, to));
    }

    /** Stores value at index, unboxing and widening it for primitive arrays. */
    public static void set(Object array, int index, Object value) throws IllegalArgumentException, ArrayIndexOutOfBoundsException {
        Object[] objects = asObjects(array);
        if (objects != null) {
            if (value != null && !array.getClass().getComponentType().isInstance(value)) {
                throw mismatch();
            }
            objects[check(objects.length, index)] = value;
            return;
        }
        int from = VMReflection.boxKind(value);
        int to = VMReflection.kind(array.getClass().getComponentType());
        if (from < 0 || !VMReflection.widens(from, to)) {
            throw mismatch();
        }
        store(array, index, to, VMReflection.widen(VMReflection.rawOf(value, from), from, to));
    }

    public static boolean getBoolean(Object array, int index) {
        return getAs(array, index, VMReflection.BOOLEAN) != 0;
    }

    public static byte getByte(Object array, int index) {
        return (byte) getAs(array, index, VMReflection.BYTE);
    }

    public static short getShort(Object array, int index) {
        return (short) getAs(array, index, VMReflection.SHORT);
    }

    public static char getChar(Object array, int index) {
        return (char) getAs(array, index, VMReflection.CHAR);
    }

    public static int getInt(Object array, int index) {
        return (int) getAs(array, index, VMReflection.INT);
    }

    public static long getLong(Object array, int index) {
        return getAs(array, index, VMReflection.LONG);
    }

    public static float getFloat(Object array, int index) {
        return Float.intBitsToFloat((int) getAs(array, index, VMReflection.FLOAT));
    }

    public static double getDouble(Object array, int index) {
        return Double.longBitsToDouble(getAs(array, index, VMReflection.DOUBLE));
    }

    public static void setBoolean(Object array, int index, boolean z) {
        setAs(array, index, z ? 1 : 0, VMReflection.BOOLEAN);
    }

    public static void setByte(Object array, int index, byte b) {
        setAs(array, index, b, VMReflection.BYTE);
    }

    public static void setShort(Object array, int index, short s) {
        setAs(array, index, s, VMReflection.SHORT);
    }

    public static void setChar(Object array, int index, char c) {
        setAs(array, index, c, VMReflection.CHAR);
    }

    public static void setInt(Object array, int index, int i) {
        setAs(array, index, i, VMReflection.INT);
    }

    public static void setLong(Object array, int index, long l) {
        setAs(array, index, l, VMReflection.LONG);
    }

    public static void setFloat(Object array, int index, float f) {
        setAs(array, index, Float.floatToRawIntBits(f) & 0xffffffffL, VMReflection.FLOAT);
    }

    public static void setDouble(Object array, int index, double d) {
        setAs(array, index, Double.doubleToRawLongBits(d), VMReflection.DOUBLE);
    }

    private static native Object newArray(Class<?> componentType, int length);

    private static native Object newMultiArray(Class<?> componentType, int[] dimensions);

    private static native int length(Object array);
}
