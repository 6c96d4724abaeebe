package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class InstantiationException extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;

    public InstantiationException() {
        super();
    }

    public InstantiationException(String message) {
        super(message);
    }
}
