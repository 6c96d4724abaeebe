package java.lang.reflect;

/**
 * Creates and measures arrays of any type. javac compiles
 * {@code new int[3][4]} (multianewarray) into a call of
 * {@link #newInstance(Class, int...)}, so multi-dimensional arrays need it.
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

    private static native Object newArray(Class<?> componentType, int length);

    private static native Object newMultiArray(Class<?> componentType, int[] dimensions);

    private static native int length(Object array);
}
