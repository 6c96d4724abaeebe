package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NoSuchFieldError extends IncompatibleClassChangeError {
    private static final long serialVersionUID = 1L;

    public NoSuchFieldError() {
        super();
    }

    public NoSuchFieldError(String message) {
        super(message);
    }
}
