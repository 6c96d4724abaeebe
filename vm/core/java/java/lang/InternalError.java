package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class InternalError extends VirtualMachineError {
    private static final long serialVersionUID = 1L;

    public InternalError() {
        super();
    }

    public InternalError(String message) {
        super(message);
    }

    public InternalError(String message, Throwable cause) {
        super(message, cause);
    }

    public InternalError(Throwable cause) {
        super(cause);
    }
}
