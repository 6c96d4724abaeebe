package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class ClassCastException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClassCastException() {
        super();
    }

    public ClassCastException(String message) {
        super(message);
    }
}
