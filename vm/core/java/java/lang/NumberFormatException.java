package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class NumberFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public NumberFormatException() {
        super();
    }

    public NumberFormatException(String message) {
        super(message);
    }
}
