package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class InstantiationError extends IncompatibleClassChangeError {
    private static final long serialVersionUID = 1L;

    public InstantiationError() {
        super();
    }

    public InstantiationError(String message) {
        super(message);
    }
}
