package java.util.concurrent;

/** Makes threads on demand. */
public interface ThreadFactory {
    Thread newThread(Runnable r);
}
