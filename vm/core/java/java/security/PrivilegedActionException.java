package java.security;

/** Wraps the checked exception a PrivilegedExceptionAction threw. */
public class PrivilegedActionException extends Exception {
    public PrivilegedActionException(Exception exception) {
        super(null, exception);
    }

    public Exception getException() {
        return (Exception) getCause();
    }

    public String toString() {
        Throwable cause = getCause();
        return cause != null ? getClass().getName() + ": " + cause : getClass().getName();
    }
}
