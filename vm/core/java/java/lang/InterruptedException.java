package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class InterruptedException extends Exception {
    private static final long serialVersionUID = 1L;

    public InterruptedException() {
        super();
    }

    public InterruptedException(String message) {
        super(message);
    }
}
