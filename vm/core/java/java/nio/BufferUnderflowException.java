package java.nio;

/** Part of java.nio's buffer contract: see Buffer. */
public class BufferUnderflowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BufferUnderflowException() {
    }
}
