package java.util;

/** Thrown by Stack when it is empty. */
public class EmptyStackException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmptyStackException() {
    }
}
