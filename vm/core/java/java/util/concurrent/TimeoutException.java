package java.util.concurrent;

/** Thrown when a blocking operation runs out of time. */
public class TimeoutException extends Exception {
    public TimeoutException() {
    }

    public TimeoutException(String message) {
        super(message);
    }
}
