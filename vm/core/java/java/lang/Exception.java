package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class Exception extends Throwable {
    private static final long serialVersionUID = 1L;

    public Exception() {
        super();
    }

    public Exception(String message) {
        super(message);
    }

    public Exception(String message, Throwable cause) {
        super(message, cause);
    }

    public Exception(Throwable cause) {
        super(cause);
    }
}
