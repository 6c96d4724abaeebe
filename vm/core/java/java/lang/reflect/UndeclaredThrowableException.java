package java.lang.reflect;

/** Wraps a checked exception a proxy's handler threw that the called method does not declare. */
public class UndeclaredThrowableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Throwable undeclaredThrowable;

    public UndeclaredThrowableException(Throwable undeclaredThrowable) {
        super(undeclaredThrowable);
        this.undeclaredThrowable = undeclaredThrowable;
    }

    public UndeclaredThrowableException(Throwable undeclaredThrowable, String s) {
        super(s, undeclaredThrowable);
        this.undeclaredThrowable = undeclaredThrowable;
    }

    public Throwable getUndeclaredThrowable() {
        return undeclaredThrowable;
    }
}
