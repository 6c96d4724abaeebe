package java.util.concurrent.locks;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A mutual-exclusion lock its owner may take again. Built on one private
 * monitor: every state change happens inside it, so a Condition's await
 * can give the lock up and start waiting atomically. Fairness is reported
 * but not enforced.
 */
public class ReentrantLock implements Lock, java.io.Serializable {
    private final Object sync = new Object();
    private final boolean fair;
    private Thread owner;
    private int holds;

    public ReentrantLock() {
        this(false);
    }

    public ReentrantLock(boolean fair) {
        this.fair = fair;
    }

    public void lock() {
        synchronized (sync) {
            boolean interrupted = false;
            while (!take(1)) {
                try {
                    sync.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public void lockInterruptibly() throws InterruptedException {
        synchronized (sync) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            while (!take(1)) {
                sync.wait();
            }
        }
    }

    public boolean tryLock() {
        synchronized (sync) {
            return take(1);
        }
    }

    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        synchronized (sync) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long deadline = System.nanoTime() + unit.toNanos(timeout);
            while (!take(1)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                sync.wait(left / 1000000, (int) (left % 1000000));
            }
            return true;
        }
    }

    // Takes the lock n times if it is free or ours; the caller holds sync.
    private boolean take(int n) {
        Thread me = Thread.currentThread();
        if (owner == null) {
            owner = me;
            holds = n;
            return true;
        }
        if (owner == me) {
            holds += n;
            return true;
        }
        return false;
    }

    public void unlock() {
        synchronized (sync) {
            if (owner != Thread.currentThread()) {
                throw new IllegalMonitorStateException();
            }
            if (--holds == 0) {
                owner = null;
                sync.notifyAll();
            }
        }
    }

    public Condition newCondition() {
        return new ConditionObject();
    }

    public int getHoldCount() {
        synchronized (sync) {
            return owner == Thread.currentThread() ? holds : 0;
        }
    }

    public boolean isHeldByCurrentThread() {
        synchronized (sync) {
            return owner == Thread.currentThread();
        }
    }

    public boolean isLocked() {
        synchronized (sync) {
            return owner != null;
        }
    }

    public final boolean isFair() {
        return fair;
    }

    protected Thread getOwner() {
        synchronized (sync) {
            return owner;
        }
    }

    public String toString() {
        Thread o = getOwner();
        return super.toString() + (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]");
    }

    // A waiter of a condition: signalled once, by signal or signalAll.
    private static final class Waiter {
        boolean signalled;
    }

    private final class ConditionObject implements Condition {
        private final ArrayList<Waiter> waiters = new ArrayList<Waiter>();

        public void await() throws InterruptedException {
            await(false, true, 0);
        }

        public void awaitUninterruptibly() {
            try {
                await(false, false, 0);
            } catch (InterruptedException e) {
                throw new Error(e); // not thrown when uninterruptible
            }
        }

        public long awaitNanos(long nanos) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            await(true, true, nanos);
            return deadline - System.nanoTime();
        }

        public boolean await(long time, TimeUnit unit) throws InterruptedException {
            return await(true, true, unit.toNanos(time));
        }

        // Gives the lock up, waits for a signal (or the timeout, or an
        // interrupt), takes the lock back as often as it was held, and
        // reports whether it was signalled.
        private boolean await(boolean timed, boolean interruptible, long nanos) throws InterruptedException {
            synchronized (sync) {
                if (owner != Thread.currentThread()) {
                    throw new IllegalMonitorStateException();
                }
                if (interruptible && Thread.interrupted()) {
                    throw new InterruptedException();
                }
                int saved = holds;
                owner = null;
                holds = 0;
                sync.notifyAll();
                Waiter w = new Waiter();
                waiters.add(w);
                long deadline = System.nanoTime() + nanos;
                InterruptedException interrupt = null;
                boolean interrupted = false;
                while (!w.signalled) {
                    long left = deadline - System.nanoTime();
                    if (timed && left <= 0) {
                        break;
                    }
                    try {
                        if (timed) {
                            sync.wait(left / 1000000, (int) (left % 1000000));
                        } else {
                            sync.wait();
                        }
                    } catch (InterruptedException e) {
                        if (interruptible) {
                            interrupt = e;
                            break;
                        }
                        interrupted = true;
                    }
                }
                waiters.remove(w);
                while (!take(saved)) {
                    try {
                        sync.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                if (interrupt != null) {
                    throw interrupt;
                }
                return w.signalled;
            }
        }

        public void signal() {
            synchronized (sync) {
                if (owner != Thread.currentThread()) {
                    throw new IllegalMonitorStateException();
                }
                for (int i = 0; i < waiters.size(); i++) {
                    Waiter w = waiters.get(i);
                    if (!w.signalled) {
                        w.signalled = true;
                        sync.notifyAll();
                        return;
                    }
                }
            }
        }

        public void signalAll() {
            synchronized (sync) {
                if (owner != Thread.currentThread()) {
                    throw new IllegalMonitorStateException();
                }
                for (int i = 0; i < waiters.size(); i++) {
                    waiters.get(i).signalled = true;
                }
                sync.notifyAll();
            }
        }
    }
}
