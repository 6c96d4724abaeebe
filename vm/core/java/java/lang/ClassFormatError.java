package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class ClassFormatError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public ClassFormatError() {
        super();
    }

    public ClassFormatError(String message) {
        super(message);
    }
}
