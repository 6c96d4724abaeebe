package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class ArrayStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ArrayStoreException() {
        super();
    }

    public ArrayStoreException(String message) {
        super(message);
    }
}
