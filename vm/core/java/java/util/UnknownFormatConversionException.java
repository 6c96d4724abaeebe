package java.util;

/** Thrown for an unknown conversion in a format string. */
public class UnknownFormatConversionException extends IllegalFormatException {
    private static final long serialVersionUID = 1L;

    private final String conversion;

    public UnknownFormatConversionException(String conversion) {
        this.conversion = conversion;
    }

    public String getConversion() {
        return conversion;
    }

    public String getMessage() {
        return "Conversion = '" + conversion + "'";
    }
}
