package java.nio;

/** Part of java.nio's buffer contract: see Buffer. */
public class InvalidMarkException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public InvalidMarkException() {
    }
}
