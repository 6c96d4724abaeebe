package java.util.concurrent;

/** A task that returns a result and may throw. */
@FunctionalInterface
public interface Callable<V> {
    V call() throws Exception;
}
