package java.io;

/** Thrown when input ends before what was asked for was read. */
public class EOFException extends IOException {
    private static final long serialVersionUID = 1L;

    public EOFException() {
    }

    public EOFException(String s) {
        super(s);
    }
}
