package java.lang;

/** The superclass of the boxed numeric types. */
public abstract class Number implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    public Number() {
    }

    public abstract int intValue();

    public abstract long longValue();

    public abstract float floatValue();

    public abstract double doubleValue();

    public byte byteValue() {
        return (byte) intValue();
    }

    public short shortValue() {
        return (short) intValue();
    }
}
