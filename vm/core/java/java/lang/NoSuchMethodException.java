package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NoSuchMethodException extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;

    public NoSuchMethodException() {
        super();
    }

    public NoSuchMethodException(String message) {
        super(message);
    }
}
