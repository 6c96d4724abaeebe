package java.lang;

/** Thrown when a static initializer throws. */
public class ExceptionInInitializerError extends LinkageError {
    private static final long serialVersionUID = 1L;

    private Throwable exception;

    public ExceptionInInitializerError() {
        initCause(null);
    }

    public ExceptionInInitializerError(Throwable thrown) {
        initCause(null);
        this.exception = thrown;
    }

    public ExceptionInInitializerError(String message) {
        super(message);
        initCause(null);
    }

    /** Returns the exception the initializer threw. */
    public Throwable getException() {
        return exception;
    }

    @Override
    public Throwable getCause() {
        return exception;
    }
}
