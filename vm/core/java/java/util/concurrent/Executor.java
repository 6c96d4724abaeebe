package java.util.concurrent;

/** Runs submitted tasks. */
public interface Executor {
    void execute(Runnable command);
}
