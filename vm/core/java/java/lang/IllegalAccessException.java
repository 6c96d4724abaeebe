package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class IllegalAccessException extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;

    public IllegalAccessException() {
        super();
    }

    public IllegalAccessException(String message) {
        super(message);
    }
}
