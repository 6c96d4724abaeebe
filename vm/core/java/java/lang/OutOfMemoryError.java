package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class OutOfMemoryError extends VirtualMachineError {
    private static final long serialVersionUID = 1L;

    public OutOfMemoryError() {
        super();
    }

    public OutOfMemoryError(String message) {
        super(message);
    }
}
