package java.util;

/** Thrown when a format specifier has no argument. */
public class MissingFormatArgumentException extends IllegalFormatException {
    private static final long serialVersionUID = 1L;

    private final String specifier;

    public MissingFormatArgumentException(String specifier) {
        this.specifier = specifier;
    }

    public String getFormatSpecifier() {
        return specifier;
    }

    public String getMessage() {
        return "Format specifier '" + specifier + "'";
    }
}
