package java.lang;

/** Thrown when a class cannot be found by name. */
public class ClassNotFoundException extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;

    public ClassNotFoundException() {
        super((String) null, (Throwable) null);
    }

    public ClassNotFoundException(String message) {
        super(message, (Throwable) null);
    }

    public ClassNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Returns the exception raised while loading the class, like getCause. */
    public Throwable getException() {
        return getCause();
    }
}
