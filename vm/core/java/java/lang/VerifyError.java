package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class VerifyError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public VerifyError() {
        super();
    }

    public VerifyError(String message) {
        super(message);
    }
}
