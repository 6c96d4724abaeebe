package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class IllegalThreadStateException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IllegalThreadStateException() {
        super();
    }

    public IllegalThreadStateException(String message) {
        super(message);
    }
}
