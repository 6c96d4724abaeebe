package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class UnsatisfiedLinkError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public UnsatisfiedLinkError() {
        super();
    }

    public UnsatisfiedLinkError(String message) {
        super(message);
    }
}
