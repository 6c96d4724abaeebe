package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class IllegalAccessError extends IncompatibleClassChangeError {
    private static final long serialVersionUID = 1L;

    public IllegalAccessError() {
        super();
    }

    public IllegalAccessError(String message) {
        super(message);
    }
}
