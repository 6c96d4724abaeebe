package java.util.concurrent;

/**
 * A reusable rendezvous of parties threads: await blocks until all have
 * arrived, the last runs the barrier action, and the barrier resets. An
 * interrupted or timed-out waiter breaks the barrier for everyone.
 */
public class CyclicBarrier {
    // One per trip of the barrier, so waiters of a finished trip are not
    // confused with those of the next.
    private static final class Generation {
        boolean broken;
    }

    private final int parties;
    private final Runnable action;
    private Generation generation = new Generation();
    private int waiting; // parties still to arrive in this generation

    public CyclicBarrier(int parties, Runnable barrierAction) {
        if (parties <= 0) {
            throw new IllegalArgumentException();
        }
        this.parties = parties;
        this.waiting = parties;
        this.action = barrierAction;
    }

    public CyclicBarrier(int parties) {
        this(parties, null);
    }

    public int getParties() {
        return parties;
    }

    public int await() throws InterruptedException, BrokenBarrierException {
        try {
            return await(false, 0);
        } catch (TimeoutException e) {
            throw new Error(e); // cannot happen without a timeout
        }
    }

    public int await(long timeout, TimeUnit unit) throws InterruptedException, BrokenBarrierException, TimeoutException {
        return await(true, unit.toNanos(timeout));
    }

    private synchronized int await(boolean timed, long nanos) throws InterruptedException, BrokenBarrierException, TimeoutException {
        Generation g = generation;
        if (g.broken) {
            throw new BrokenBarrierException();
        }
        if (Thread.interrupted()) {
            breakBarrier();
            throw new InterruptedException();
        }
        int index = --waiting;
        if (index == 0) {
            boolean ran = false;
            try {
                if (action != null) {
                    action.run();
                }
                ran = true;
                nextGeneration();
                return 0;
            } finally {
                if (!ran) {
                    breakBarrier();
                }
            }
        }
        long deadline = System.nanoTime() + nanos;
        while (true) {
            try {
                if (!timed) {
                    wait();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        breakBarrier();
                        throw new TimeoutException();
                    }
                    wait(left / 1000000, (int) (left % 1000000));
                }
            } catch (InterruptedException e) {
                if (g == generation && !g.broken) {
                    breakBarrier();
                    throw e;
                }
                // The trip happened already: keep the interrupt for later.
                Thread.currentThread().interrupt();
            }
            if (g.broken) {
                throw new BrokenBarrierException();
            }
            if (g != generation) {
                return index;
            }
        }
    }

    private void nextGeneration() {
        notifyAll();
        waiting = parties;
        generation = new Generation();
    }

    private void breakBarrier() {
        generation.broken = true;
        waiting = parties;
        notifyAll();
    }

    public synchronized boolean isBroken() {
        return generation.broken;
    }

    public synchronized void reset() {
        breakBarrier();
        generation = new Generation();
    }

    public synchronized int getNumberWaiting() {
        return parties - waiting;
    }
}
