package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class IncompatibleClassChangeError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public IncompatibleClassChangeError() {
        super();
    }

    public IncompatibleClassChangeError(String message) {
        super(message);
    }
}
