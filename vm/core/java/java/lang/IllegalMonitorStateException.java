package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class IllegalMonitorStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IllegalMonitorStateException() {
        super();
    }

    public IllegalMonitorStateException(String message) {
        super(message);
    }
}
