package java.lang;

/** A task without arguments or result. */
@FunctionalInterface
public interface Runnable {
    void run();
}
