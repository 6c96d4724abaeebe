package java.util.concurrent.locks;

import java.util.concurrent.TimeUnit;

/** A wait set tied to a Lock: await releases the lock until signalled. */
public interface Condition {
    void await() throws InterruptedException;

    void awaitUninterruptibly();

    long awaitNanos(long nanosTimeout) throws InterruptedException;

    boolean await(long time, TimeUnit unit) throws InterruptedException;

    void signal();

    void signalAll();
}
