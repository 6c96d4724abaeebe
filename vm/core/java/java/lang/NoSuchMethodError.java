package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NoSuchMethodError extends IncompatibleClassChangeError {
    private static final long serialVersionUID = 1L;

    public NoSuchMethodError() {
        super();
    }

    public NoSuchMethodError(String message) {
        super(message);
    }
}
