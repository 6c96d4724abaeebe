package java.lang;

/** The common base class of all enum types. */
public abstract class Enum<E extends Enum<E>> implements Comparable<E>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int ordinal;

    protected Enum(String name, int ordinal) {
        this.name = name;
        this.ordinal = ordinal;
    }

    public final String name() {
        return name;
    }

    public final int ordinal() {
        return ordinal;
    }

    public String toString() {
        return name;
    }

    public final boolean equals(Object other) {
        return this == other;
    }

    public final int hashCode() {
        return super.hashCode();
    }

    protected final Object clone() throws CloneNotSupportedException {
        throw new CloneNotSupportedException();
    }

    @SuppressWarnings("rawtypes")
    public final int compareTo(E o) {
        Enum other = (Enum) o;
        if (getDeclaringClass() != other.getDeclaringClass()) {
            throw new ClassCastException();
        }
        return ordinal - other.ordinal;
    }

    @SuppressWarnings("unchecked")
    public final Class<E> getDeclaringClass() {
        Class<?> c = getClass();
        Class<?> sup = c.getSuperclass();
        // Constants with bodies are anonymous subclasses of the enum class.
        return sup == Enum.class ? (Class<E>) c : (Class<E>) sup;
    }

    public static <T extends Enum<T>> T valueOf(Class<T> enumType, String name) {
        if (name == null) {
            throw new NullPointerException("Name is null");
        }
        T[] values = enumType.getEnumConstants();
        if (values == null) {
            throw new IllegalArgumentException(enumType.getName() + " is not an enum type");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i].name().equals(name)) {
                return values[i];
            }
        }
        throw new IllegalArgumentException("No enum constant " + enumType.getCanonicalName() + "." + name);
    }

    protected final void finalize() {
    }
}
