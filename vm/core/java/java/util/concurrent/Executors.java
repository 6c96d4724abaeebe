package java.util.concurrent;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;

/**
 * Thread pools: fixed-size, single-thread and cached (threads made on
 * demand, ended after 60 s idle), with the platform's default thread
 * names "pool-N-thread-M". There is no public ThreadPoolExecutor; the
 * pools are this class's own.
 */
public class Executors {
    private static int poolNumber;

    private Executors() {
    }

    public static ExecutorService newFixedThreadPool(int nThreads) {
        return newFixedThreadPool(nThreads, defaultThreadFactory());
    }

    public static ExecutorService newFixedThreadPool(int nThreads, ThreadFactory factory) {
        if (nThreads <= 0) {
            throw new IllegalArgumentException();
        }
        return new Pool(nThreads, 0, factory);
    }

    public static ExecutorService newSingleThreadExecutor() {
        return newFixedThreadPool(1);
    }

    public static ExecutorService newSingleThreadExecutor(ThreadFactory factory) {
        return newFixedThreadPool(1, factory);
    }

    public static ExecutorService newCachedThreadPool() {
        return newCachedThreadPool(defaultThreadFactory());
    }

    public static ExecutorService newCachedThreadPool(ThreadFactory factory) {
        return new Pool(Integer.MAX_VALUE, 60000, factory);
    }

    public static <T> Callable<T> callable(final Runnable task, final T result) {
        if (task == null) {
            throw new NullPointerException();
        }
        return new Callable<T>() {
            public T call() {
                task.run();
                return result;
            }
        };
    }

    public static Callable<Object> callable(Runnable task) {
        return callable(task, null);
    }

    public static ThreadFactory defaultThreadFactory() {
        final int pool;
        synchronized (Executors.class) {
            pool = ++poolNumber;
        }
        return new ThreadFactory() {
            private int next;

            public Thread newThread(Runnable r) {
                int n;
                synchronized (this) {
                    n = ++next;
                }
                Thread t = new Thread(r, "pool-" + pool + "-thread-" + n);
                if (t.isDaemon()) {
                    t.setDaemon(false);
                }
                if (t.getPriority() != Thread.NORM_PRIORITY) {
                    t.setPriority(Thread.NORM_PRIORITY);
                }
                return t;
            }
        };
    }

    // A pool of at most max workers taking tasks from one list under the
    // pool's monitor; with keepAliveMillis > 0 an idle worker ends after
    // that long.
    private static final class Pool extends AbstractExecutorService {
        private final int max;
        private final long keepAliveMillis;
        private final ThreadFactory factory;
        private final LinkedList<Runnable> tasks = new LinkedList<Runnable>();
        private final HashSet<Thread> workers = new HashSet<Thread>();
        private int idle;
        private boolean shutdown;

        Pool(int max, long keepAliveMillis, ThreadFactory factory) {
            if (factory == null) {
                throw new NullPointerException();
            }
            this.max = max;
            this.keepAliveMillis = keepAliveMillis;
            this.factory = factory;
        }

        public synchronized void execute(Runnable task) {
            if (task == null) {
                throw new NullPointerException();
            }
            if (shutdown) {
                throw new RejectedExecutionException("Task " + task + " rejected from " + this);
            }
            tasks.add(task);
            if (tasks.size() > idle && workers.size() < max) {
                Thread t = factory.newThread(new Worker());
                workers.add(t);
                t.start();
            }
            notifyAll();
        }

        private final class Worker implements Runnable {
            public void run() {
                while (true) {
                    Runnable task = next();
                    if (task == null) {
                        return;
                    }
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        replace();
                        throw e;
                    } catch (Error e) {
                        replace();
                        throw e;
                    }
                    Thread.interrupted(); // an interrupt meant for the task
                }
            }
        }

        // The next task, or null when this worker should end.
        private synchronized Runnable next() {
            long deadline = System.currentTimeMillis() + keepAliveMillis;
            while (tasks.isEmpty()) {
                long left = deadline - System.currentTimeMillis();
                if (shutdown || (keepAliveMillis > 0 && left <= 0)) {
                    retire();
                    return null;
                }
                idle++;
                try {
                    wait(keepAliveMillis > 0 ? left : 0);
                } catch (InterruptedException e) {
                    // shutdownNow: look at the state again
                } finally {
                    idle--;
                }
            }
            return tasks.removeFirst();
        }

        // Ends this worker, which a task's exception is about to end, and
        // starts another if tasks are waiting.
        private synchronized void replace() {
            retire();
            if (!tasks.isEmpty() && workers.size() < max) {
                Thread t = factory.newThread(new Worker());
                workers.add(t);
                t.start();
            }
        }

        private synchronized void retire() {
            workers.remove(Thread.currentThread());
            notifyAll();
        }

        public synchronized void shutdown() {
            shutdown = true;
            notifyAll();
        }

        public synchronized List<Runnable> shutdownNow() {
            shutdown = true;
            List<Runnable> left = new ArrayList<Runnable>(tasks);
            tasks.clear();
            for (Thread t : workers) {
                t.interrupt();
            }
            notifyAll();
            return left;
        }

        public synchronized boolean isShutdown() {
            return shutdown;
        }

        public synchronized boolean isTerminated() {
            return shutdown && workers.isEmpty();
        }

        public synchronized boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            long deadline = System.nanoTime() + unit.toNanos(timeout);
            while (!isTerminated()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(left / 1000000, (int) (left % 1000000));
            }
            return true;
        }
    }
}
