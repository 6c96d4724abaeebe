package java.lang;

/** Thrown when an index into an array, string or list is out of range. */
public class IndexOutOfBoundsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IndexOutOfBoundsException() {
        super();
    }

    public IndexOutOfBoundsException(String message) {
        super(message);
    }

    public IndexOutOfBoundsException(int index) {
        super("Index out of range: " + index);
    }
}
