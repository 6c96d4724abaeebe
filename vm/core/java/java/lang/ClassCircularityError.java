package java.lang;

/** Thrown as in the Java platform; see the class of the same name there. */
public class ClassCircularityError extends LinkageError {
    private static final long serialVersionUID = 1L;

    public ClassCircularityError() {
        super();
    }

    public ClassCircularityError(String message) {
        super(message);
    }
}
