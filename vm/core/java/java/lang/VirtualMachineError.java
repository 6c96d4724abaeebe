package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class VirtualMachineError extends Error {
    private static final long serialVersionUID = 1L;

    public VirtualMachineError() {
        super();
    }

    public VirtualMachineError(String message) {
        super(message);
    }

    public VirtualMachineError(String message, Throwable cause) {
        super(message, cause);
    }

    public VirtualMachineError(Throwable cause) {
        super(cause);
    }
}
