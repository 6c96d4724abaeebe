package java.util.concurrent;

/** A one-shot gate: await blocks until countDown has been called count times. */
public class CountDownLatch {
    private long count;

    public CountDownLatch(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0");
        }
        this.count = count;
    }

    public synchronized void await() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        while (count > 0) {
            wait();
        }
    }

    /** Waits at most timeout; returns whether the count reached zero. */
    public synchronized boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(left / 1000000, (int) (left % 1000000));
        }
        return true;
    }

    public synchronized void countDown() {
        if (count > 0 && --count == 0) {
            notifyAll();
        }
    }

    public synchronized long getCount() {
        return count;
    }

    public String toString() {
        return super.toString() + "[Count = " + getCount() + "]";
    }
}
