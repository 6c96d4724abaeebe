package java.lang.reflect;

/** Thrown when a generic signature in a class file (or DEX annotation) is malformed. */
public class GenericSignatureFormatError extends ClassFormatError {
    private static final long serialVersionUID = 1L;

    public GenericSignatureFormatError() {
    }

    public GenericSignatureFormatError(String message) {
        super(message);
    }
}
