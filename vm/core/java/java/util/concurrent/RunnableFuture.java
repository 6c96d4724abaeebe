package java.util.concurrent;

/** A Future that is its own task. */
public interface RunnableFuture<V> extends Runnable, Future<V> {
    void run();
}
