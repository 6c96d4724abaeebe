package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class CloneNotSupportedException extends Exception {
    private static final long serialVersionUID = 1L;

    public CloneNotSupportedException() {
        super();
    }

    public CloneNotSupportedException(String message) {
        super(message);
    }
}
