package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class ArithmeticException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ArithmeticException() {
        super();
    }

    public ArithmeticException(String message) {
        super(message);
    }
}
