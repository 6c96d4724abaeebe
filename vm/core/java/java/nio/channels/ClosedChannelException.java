package java.nio.channels;

import java.io.IOException;

/** Thrown on an operation on a closed channel. */
public class ClosedChannelException extends IOException {
    private static final long serialVersionUID = 1L;

    public ClosedChannelException() {
    }
}
