package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class StackOverflowError extends VirtualMachineError {
    private static final long serialVersionUID = 1L;

    public StackOverflowError() {
        super();
    }

    public StackOverflowError(String message) {
        super(message);
    }
}
