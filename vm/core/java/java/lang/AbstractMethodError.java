package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class AbstractMethodError extends IncompatibleClassChangeError {
    private static final long serialVersionUID = 1L;

    public AbstractMethodError() {
        super();
    }

    public AbstractMethodError(String message) {
        super(message);
    }
}
