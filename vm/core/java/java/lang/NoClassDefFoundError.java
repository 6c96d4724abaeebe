package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NoClassDefFoundError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public NoClassDefFoundError() {
        super();
    }

    public NoClassDefFoundError(String message) {
        super(message);
    }
}
