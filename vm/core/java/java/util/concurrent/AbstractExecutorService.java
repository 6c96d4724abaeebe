package java.util.concurrent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** submit and invokeAll over execute. */
public abstract class AbstractExecutorService implements ExecutorService {
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new FutureTask<T>(runnable, value);
    }

    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new FutureTask<T>(callable);
    }

    public Future<?> submit(Runnable task) {
        RunnableFuture<Object> f = newTaskFor(task, null);
        execute(f);
        return f;
    }

    public <T> Future<T> submit(Runnable task, T result) {
        RunnableFuture<T> f = newTaskFor(task, result);
        execute(f);
        return f;
    }

    public <T> Future<T> submit(Callable<T> task) {
        RunnableFuture<T> f = newTaskFor(task);
        execute(f);
        return f;
    }

    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        List<Future<T>> futures = new ArrayList<Future<T>>(tasks.size());
        for (Callable<T> c : tasks) {
            futures.add(submit(c));
        }
        for (Future<T> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                // reported by the future itself
            } catch (CancellationException e) {
                // likewise
            }
        }
        return futures;
    }
}
