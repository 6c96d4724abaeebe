package java.util.concurrent;

/** Thrown by Future.get when the task was cancelled. */
public class CancellationException extends IllegalStateException {
    public CancellationException() {
    }

    public CancellationException(String message) {
        super(message);
    }
}
