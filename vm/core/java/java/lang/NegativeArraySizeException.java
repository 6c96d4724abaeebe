package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NegativeArraySizeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NegativeArraySizeException() {
        super();
    }

    public NegativeArraySizeException(String message) {
        super(message);
    }
}
