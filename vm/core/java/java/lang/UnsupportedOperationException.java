package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class UnsupportedOperationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedOperationException() {
        super();
    }

    public UnsupportedOperationException(String message) {
        super(message);
    }

    public UnsupportedOperationException(String message, Throwable cause) {
        super(message, cause);
    }

    public UnsupportedOperationException(Throwable cause) {
        super(cause);
    }
}
