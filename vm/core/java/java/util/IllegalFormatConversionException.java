package java.util;

/** Thrown when an argument does not suit its conversion. */
public class IllegalFormatConversionException extends IllegalFormatException {
    private static final long serialVersionUID = 1L;

    private final char conversion;
    private final Class<?> argClass;

    public IllegalFormatConversionException(char c, Class<?> arg) {
        this.conversion = c;
        this.argClass = arg;
    }

    public char getConversion() {
        return conversion;
    }

    public Class<?> getArgumentClass() {
        return argClass;
    }

    public String getMessage() {
        return conversion + " != " + argClass.getName();
    }
}
