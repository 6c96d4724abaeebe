package java.util.concurrent;

/** A cancellable computation whose result get waits for. */
public class FutureTask<V> implements RunnableFuture<V> {
    private static final int NEW = 0, RUNNING = 1, DONE = 2, CANCELLED = 3;

    private final Callable<V> callable;
    private int state;
    private V result;
    private Throwable failure;
    private Thread runner;

    public FutureTask(Callable<V> callable) {
        if (callable == null) {
            throw new NullPointerException();
        }
        this.callable = callable;
    }

    public FutureTask(Runnable runnable, V result) {
        this(Executors.callable(runnable, result));
    }

    public void run() {
        synchronized (this) {
            if (state != NEW) {
                return;
            }
            state = RUNNING;
            runner = Thread.currentThread();
        }
        V v = null;
        Throwable f = null;
        try {
            v = callable.call();
        } catch (Throwable t) {
            f = t;
        }
        synchronized (this) {
            runner = null;
            if (state == RUNNING) {
                result = v;
                failure = f;
                state = DONE;
                notifyAll();
            }
        }
        done();
    }

    /** Called once the task is done or cancelled; does nothing here. */
    protected void done() {
    }

    public boolean cancel(boolean mayInterruptIfRunning) {
        synchronized (this) {
            if (state != NEW && state != RUNNING) {
                return false;
            }
            if (state == RUNNING && mayInterruptIfRunning && runner != null) {
                runner.interrupt();
            }
            state = CANCELLED;
            notifyAll();
        }
        done();
        return true;
    }

    public synchronized boolean isCancelled() {
        return state == CANCELLED;
    }

    public synchronized boolean isDone() {
        return state >= DONE;
    }

    public synchronized V get() throws InterruptedException, ExecutionException {
        while (state < DONE) {
            wait();
        }
        return report();
    }

    public synchronized V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (state < DONE) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            wait(left / 1000000, (int) (left % 1000000));
        }
        return report();
    }

    private V report() throws ExecutionException {
        if (state == CANCELLED) {
            throw new CancellationException();
        }
        if (failure != null) {
            throw new ExecutionException(failure);
        }
        return result;
    }
}
