package java.io;

/** Thrown as in the Java platform; see the class of the same name there. */
public class UnsupportedEncodingException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnsupportedEncodingException() {
        super();
    }

    public UnsupportedEncodingException(String message) {
        super(message);
    }
}
