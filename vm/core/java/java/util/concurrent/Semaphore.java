package java.util.concurrent;

/**
 * Counting permits. Waiters are woken in no particular order; fairness is
 * accepted and reported but not enforced.
 */
public class Semaphore implements java.io.Serializable {
    private int permits;
    private final boolean fair;

    public Semaphore(int permits) {
        this(permits, false);
    }

    public Semaphore(int permits, boolean fair) {
        this.permits = permits;
        this.fair = fair;
    }

    public void acquire() throws InterruptedException {
        acquire(1);
    }

    public synchronized void acquire(int n) throws InterruptedException {
        check(n);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        while (permits < n) {
            wait();
        }
        permits -= n;
    }

    public void acquireUninterruptibly() {
        acquireUninterruptibly(1);
    }

    public synchronized void acquireUninterruptibly(int n) {
        check(n);
        boolean interrupted = false;
        while (permits < n) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        permits -= n;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean tryAcquire() {
        return tryAcquire(1);
    }

    public synchronized boolean tryAcquire(int n) {
        check(n);
        if (permits < n) {
            return false;
        }
        permits -= n;
        return true;
    }

    public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
        return tryAcquire(1, timeout, unit);
    }

    public synchronized boolean tryAcquire(int n, long timeout, TimeUnit unit) throws InterruptedException {
        check(n);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (permits < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(left / 1000000, (int) (left % 1000000));
        }
        permits -= n;
        return true;
    }

    public void release() {
        release(1);
    }

    public synchronized void release(int n) {
        check(n);
        permits += n;
        notifyAll();
    }

    public synchronized int availablePermits() {
        return permits;
    }

    public synchronized int drainPermits() {
        int n = permits > 0 ? permits : 0;
        permits -= n;
        return n;
    }

    public boolean isFair() {
        return fair;
    }

    private static void check(int n) {
        if (n < 0) {
            throw new IllegalArgumentException();
        }
    }

    public String toString() {
        return super.toString() + "[Permits = " + availablePermits() + "]";
    }
}
