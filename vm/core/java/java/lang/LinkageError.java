package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class LinkageError extends Error {
    private static final long serialVersionUID = 1L;

    public LinkageError() {
        super();
    }

    public LinkageError(String message) {
        super(message);
    }

    public LinkageError(String message, Throwable cause) {
        super(message, cause);
    }

    public LinkageError(Throwable cause) {
        super(cause);
    }
}
