package java.nio;

/** Part of java.nio's buffer contract: see Buffer. */
public class ReadOnlyBufferException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyBufferException() {
    }
}
