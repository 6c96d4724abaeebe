package java.nio.channels;

/** Thrown when reading from a channel opened for writing only. */
public class NonReadableChannelException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public NonReadableChannelException() {
    }
}
