package java.util;

/** Thrown when a format string or its arguments are invalid. */
public class IllegalFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    IllegalFormatException() {
    }

    IllegalFormatException(String message) {
        super(message);
    }
}
