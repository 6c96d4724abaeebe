package java.lang;

/** Thrown when a type named in a class file cannot be found. */
public class TypeNotPresentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String typeName;

    public TypeNotPresentException(String typeName, Throwable cause) {
        super("Type " + typeName + " not present", cause);
        this.typeName = typeName;
    }

    public String typeName() {
        return typeName;
    }
}
