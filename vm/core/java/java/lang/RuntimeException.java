package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class RuntimeException extends Exception {
    private static final long serialVersionUID = 1L;

    public RuntimeException() {
        super();
    }

    public RuntimeException(String message) {
        super(message);
    }

    public RuntimeException(String message, Throwable cause) {
        super(message, cause);
    }

    public RuntimeException(Throwable cause) {
        super(cause);
    }
}
