package java.lang;

import java.io.PrintStream;

/**
 * The superclass of everything that can be thrown. The VM records the stack
 * in an opaque backtrace object (nativeFillInStackTrace) and turns it into
 * StackTraceElements only when asked (nativeGetStackTrace).
 */
public class Throwable implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];
    private static final Throwable[] NO_SUPPRESSED = new Throwable[0];

    private String detailMessage;
    // cause == this means "not initialised yet", so initCause can still set it.
    private Throwable cause = this;
    private transient Object backtrace;
    private StackTraceElement[] stackTrace;
    private Throwable[] suppressed;

    public Throwable() {
        fillInStackTrace();
    }

    public Throwable(String message) {
        fillInStackTrace();
        detailMessage = message;
    }

    public Throwable(String message, Throwable cause) {
        fillInStackTrace();
        detailMessage = message;
        this.cause = cause;
    }

    public Throwable(Throwable cause) {
        fillInStackTrace();
        detailMessage = cause == null ? null : cause.toString();
        this.cause = cause;
    }

    protected Throwable(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
        if (writableStackTrace) {
            fillInStackTrace();
        } else {
            stackTrace = NO_FRAMES;
        }
        detailMessage = message;
        this.cause = cause;
    }

    private static native Object nativeFillInStackTrace();

    private static native StackTraceElement[] nativeGetStackTrace(Object backtrace);

    public String getMessage() {
        return detailMessage;
    }

    public String getLocalizedMessage() {
        return getMessage();
    }

    public synchronized Throwable getCause() {
        return cause == this ? null : cause;
    }

    public synchronized Throwable initCause(Throwable cause) {
        if (this.cause != this) {
            throw new IllegalStateException("Can't overwrite cause with " + cause, this);
        }
        if (cause == this) {
            throw new IllegalArgumentException("Self-causation not permitted", this);
        }
        this.cause = cause;
        return this;
    }

    public String toString() {
        String msg = getLocalizedMessage();
        String name = getClass().getName();
        return msg != null ? name + ": " + msg : name;
    }

    public synchronized Throwable fillInStackTrace() {
        backtrace = nativeFillInStackTrace();
        stackTrace = null;
        return this;
    }

    private synchronized StackTraceElement[] ourStackTrace() {
        if (stackTrace == null) {
            StackTraceElement[] frames = null;
            if (backtrace != null) {
                frames = nativeGetStackTrace(backtrace);
            }
            stackTrace = frames == null ? NO_FRAMES : frames;
            backtrace = null;
        }
        return stackTrace;
    }

    public StackTraceElement[] getStackTrace() {
        return ourStackTrace().clone();
    }

    public void setStackTrace(StackTraceElement[] stackTrace) {
        StackTraceElement[] copy = stackTrace.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                throw new NullPointerException("stackTrace[" + i + "]");
            }
        }
        synchronized (this) {
            this.stackTrace = copy;
            this.backtrace = null;
        }
    }

    public final synchronized void addSuppressed(Throwable exception) {
        if (exception == this) {
            throw new IllegalArgumentException("Self-suppression not permitted", exception);
        }
        if (exception == null) {
            throw new NullPointerException("Cannot suppress a null exception.");
        }
        int n = suppressed == null ? 0 : suppressed.length;
        Throwable[] grown = new Throwable[n + 1];
        for (int i = 0; i < n; i++) {
            grown[i] = suppressed[i];
        }
        grown[n] = exception;
        suppressed = grown;
    }

    public final synchronized Throwable[] getSuppressed() {
        return suppressed == null ? NO_SUPPRESSED : suppressed.clone();
    }

    public void printStackTrace() {
        printStackTrace(System.err);
    }

    public void printStackTrace(PrintStream s) {
        // seen guards against cause cycles, which would otherwise print forever.
        Throwable[] seen = new Throwable[] {this};
        synchronized (s) {
            s.println(this);
            StackTraceElement[] trace = ourStackTrace();
            for (int i = 0; i < trace.length; i++) {
                s.println("\tat " + trace[i]);
            }
            Throwable[] sup = getSuppressed();
            for (int i = 0; i < sup.length; i++) {
                seen = sup[i].printEnclosed(s, trace, "Suppressed: ", "\t", seen);
            }
            Throwable c = getCause();
            if (c != null) {
                c.printEnclosed(s, trace, "Caused by: ", "", seen);
            }
        }
    }

    private Throwable[] printEnclosed(PrintStream s, StackTraceElement[] enclosing, String caption, String prefix, Throwable[] seen) {
        for (int i = 0; i < seen.length; i++) {
            if (seen[i] == this) {
                s.println(prefix + caption + "[CIRCULAR REFERENCE: " + this + "]");
                return seen;
            }
        }
        Throwable[] more = new Throwable[seen.length + 1];
        for (int i = 0; i < seen.length; i++) {
            more[i] = seen[i];
        }
        more[seen.length] = this;
        seen = more;

        StackTraceElement[] trace = ourStackTrace();
        // Frames shared with the enclosing trace are summarised as "... n more".
        int m = trace.length - 1;
        int n = enclosing.length - 1;
        while (m >= 0 && n >= 0 && trace[m].equals(enclosing[n])) {
            m--;
            n--;
        }
        int common = trace.length - 1 - m;
        s.println(prefix + caption + this);
        for (int i = 0; i <= m; i++) {
            s.println(prefix + "\tat " + trace[i]);
        }
        if (common != 0) {
            s.println(prefix + "\t... " + common + " more");
        }
        Throwable[] sup = getSuppressed();
        for (int i = 0; i < sup.length; i++) {
            seen = sup[i].printEnclosed(s, trace, "Suppressed: ", prefix + "\t", seen);
        }
        Throwable c = getCause();
        if (c != null) {
            seen = c.printEnclosed(s, trace, "Caused by: ", prefix, seen);
        }
        return seen;
    }
}
