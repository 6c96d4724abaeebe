package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class Error extends Throwable {
    private static final long serialVersionUID = 1L;

    public Error() {
        super();
    }

    public Error(String message) {
        super(message);
    }

    public Error(String message, Throwable cause) {
        super(message, cause);
    }

    public Error(Throwable cause) {
        super(cause);
    }
}
