package java.nio.channels;

/** Thrown when writing to a channel opened for reading only. */
public class NonWritableChannelException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public NonWritableChannelException() {
    }
}
