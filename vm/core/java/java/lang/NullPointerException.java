package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NullPointerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NullPointerException() {
        super();
    }

    public NullPointerException(String message) {
        super(message);
    }
}
