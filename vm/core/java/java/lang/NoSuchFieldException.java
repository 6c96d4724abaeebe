package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NoSuchFieldException extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;

    public NoSuchFieldException() {
        super();
    }

    public NoSuchFieldException(String message) {
        super(message);
    }
}
