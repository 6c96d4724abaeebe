import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

// java.util.concurrent (latch, barrier, semaphore, lock and condition,
// ConcurrentHashMap, atomic arrays, TimeUnit), java.util.zip checksums,
// java.security's doPrivileged and TimeZone's fixed zones. Thread
// interleavings vary, so only what every interleaving prints is printed.
public class Main {
    static final int THREADS = 4;

    public static void main(String[] args) throws Exception {
        latchAndBarrier();
        semaphore();
        locks();
        maps();
        queues();
        executors();
        atomics();
        timeUnits();
        checksums();
        security();
        zones();
    }

    static void latchAndBarrier() throws Exception {
        final CountDownLatch start = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(THREADS);
        final int[] rounds = new int[1];
        final CyclicBarrier barrier = new CyclicBarrier(THREADS, new Runnable() {
            public void run() {
                rounds[0]++;
            }
        });
        final AtomicIntegerArray arrivals = new AtomicIntegerArray(THREADS);
        for (int i = 0; i < THREADS; i++) {
            final int id = i;
            new Thread() {
                public void run() {
                    try {
                        start.await();
                        for (int r = 0; r < 3; r++) {
                            arrivals.set(barrier.await(), 1);
                        }
                    } catch (Exception e) {
                        System.out.println("unexpected " + e);
                    }
                    done.countDown();
                }
            }.start();
        }
        System.out.println("latch " + start.getCount() + " " + done.getCount());
        start.countDown();
        done.await();
        System.out.println("rounds " + rounds[0] + " arrival indexes " + arrivals + " waiting " + barrier.getNumberWaiting() + " broken " + barrier.isBroken());
        System.out.println("timed await " + new CountDownLatch(1).await(1, TimeUnit.MILLISECONDS) + " " + done.await(1, TimeUnit.SECONDS));

        CyclicBarrier two = new CyclicBarrier(2);
        try {
            two.await(1, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.out.println("TimeoutException, broken " + two.isBroken());
        }
        try {
            two.await();
        } catch (BrokenBarrierException e) {
            System.out.println("BrokenBarrierException");
        }
        two.reset();
        System.out.println("after reset broken " + two.isBroken() + " parties " + two.getParties());
        try {
            new CountDownLatch(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("IllegalArgumentException");
        }
    }

    static void semaphore() throws Exception {
        final Semaphore sem = new Semaphore(2);
        final int[] inside = new int[1];
        final int[] most = new int[1];
        Thread[] ts = new Thread[THREADS];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread() {
                public void run() {
                    for (int k = 0; k < 50; k++) {
                        sem.acquireUninterruptibly();
                        synchronized (inside) {
                            inside[0]++;
                            most[0] = Math.max(most[0], inside[0]);
                        }
                        Thread.yield();
                        synchronized (inside) {
                            inside[0]--;
                        }
                        sem.release();
                    }
                }
            };
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("semaphore most inside <= 2: " + (most[0] <= 2) + " permits " + sem.availablePermits());
        System.out.println(sem.tryAcquire(3) + " " + sem.tryAcquire(2) + " " + sem.tryAcquire() + " " + sem.tryAcquire(1, 1, TimeUnit.MILLISECONDS));
        sem.release(5);
        System.out.println("drained " + sem.drainPermits() + " fair " + sem.isFair() + " " + new Semaphore(0, true).isFair());
    }

    static int counter;

    static void locks() throws Exception {
        final ReentrantLock lock = new ReentrantLock();
        final Condition ready = lock.newCondition();
        final int[] stage = new int[1];
        Thread[] ts = new Thread[THREADS];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread() {
                public void run() {
                    for (int k = 0; k < 1000; k++) {
                        lock.lock();
                        try {
                            lock.lock(); // reentrant
                            counter++;
                            lock.unlock();
                        } finally {
                            lock.unlock();
                        }
                    }
                }
            };
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("counter " + counter + " locked " + lock.isLocked());

        // A producer/consumer hand-off with a condition.
        Thread consumer = new Thread() {
            public void run() {
                lock.lock();
                try {
                    while (stage[0] != 1) ready.awaitUninterruptibly();
                    stage[0] = 2;
                    ready.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        };
        consumer.start();
        lock.lock();
        try {
            System.out.println("holds " + lock.getHoldCount() + " mine " + lock.isHeldByCurrentThread());
            stage[0] = 1;
            ready.signal();
            while (stage[0] != 2) ready.await();
            System.out.println("stage " + stage[0] + " holds after await " + lock.getHoldCount());
            System.out.println("timed await " + ready.await(1, TimeUnit.MILLISECONDS) + " " + (ready.awaitNanos(1000) <= 0));
        } finally {
            lock.unlock();
        }
        consumer.join();
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException e) {
            System.out.println("IllegalMonitorStateException");
        }
        try {
            ready.signal();
        } catch (IllegalMonitorStateException e) {
            System.out.println("IllegalMonitorStateException");
        }
        System.out.println("tryLock " + lock.tryLock() + " " + lock.tryLock(1, TimeUnit.MILLISECONDS) + " holds " + lock.getHoldCount());
        lock.unlock();
        lock.unlock();
    }

    static void maps() throws Exception {
        final ConcurrentHashMap<String, Integer> m = new ConcurrentHashMap<String, Integer>();
        Thread[] ts = new Thread[THREADS];
        for (int i = 0; i < ts.length; i++) {
            final int id = i;
            ts[i] = new Thread() {
                public void run() {
                    for (int k = 0; k < 200; k++) {
                        String key = "k" + (k % 50);
                        Integer old;
                        do {
                            old = m.putIfAbsent(key, 1);
                        } while (old != null && !m.replace(key, old, old + 1));
                    }
                }
            };
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        List<String> keys = new ArrayList<String>(m.keySet());
        Collections.sort(keys);
        int total = 0;
        for (Integer v : m.values()) total += v;
        System.out.println("size " + m.size() + " total " + total + " first " + keys.get(0) + "=" + m.get(keys.get(0)));
        // Removing while iterating is allowed.
        for (Iterator<Map.Entry<String, Integer>> it = m.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Integer> e = it.next();
            if (e.getKey().endsWith("1")) {
                it.remove();
            } else if (e.getKey().endsWith("2")) {
                e.setValue(-1);
            }
        }
        for (String k : m.keySet()) {
            if (k.endsWith("3")) m.remove(k);
        }
        System.out.println("size " + m.size() + " k2=" + m.get("k2") + " k1=" + m.get("k1") + " " + m.getOrDefault("zz", 7) + " " + m.containsKey("k4") + " " + m.contains(-1));
        System.out.println(m.remove("k4", 99) + " " + m.remove("k4", 16) + " " + m.replace("nope", 1) + " " + m.replace("k5", 5));
        try {
            m.put(null, 1);
        } catch (NullPointerException e) {
            System.out.println("NullPointerException key");
        }
        try {
            m.put("x", null);
        } catch (NullPointerException e) {
            System.out.println("NullPointerException value");
        }
        ConcurrentHashMap<Integer, String> small = new ConcurrentHashMap<Integer, String>();
        for (int i = 0; i < 10; i++) small.put(i * 7, "v" + i);
        System.out.println(small);
    }

    static void queues() throws Exception {
        final LinkedBlockingQueue<Integer> q = new LinkedBlockingQueue<Integer>(2);
        Thread producer = new Thread() {
            public void run() {
                try {
                    for (int i = 0; i < 100; i++) q.put(i);
                    q.put(-1);
                } catch (InterruptedException e) {
                    System.out.println("interrupted");
                }
            }
        };
        producer.start();
        long sum = 0;
        int n = 0;
        boolean ordered = true;
        for (int prev = -1;;) {
            int v = q.take();
            if (v < 0) break;
            ordered &= v == prev + 1;
            prev = v;
            sum += v;
            n++;
        }
        producer.join();
        System.out.println("took " + n + " sum " + sum + " in order " + ordered + " remaining " + q.remainingCapacity());
        System.out.println(q.poll(1, TimeUnit.MILLISECONDS) + " " + q.offer(1) + " " + q.offer(2) + " " + q.offer(3) + " " + q.offer(4, 1, TimeUnit.MILLISECONDS) + " " + q);

        PriorityBlockingQueue<Integer> pq = new PriorityBlockingQueue<Integer>(10);
        int[] in = {5, 1, 9, 3, 7, 2, 8};
        for (int x : in) pq.offer(x);
        System.out.println(pq + " size " + pq.size() + " peek " + pq.peek() + " " + pq.remainingCapacity());
        try {
            pq.toArray(new String[5]);
        } catch (ArrayStoreException e) {
            System.out.println("ArrayStoreException");
        }
        List<Integer> drained = new ArrayList<Integer>();
        pq.drainTo(drained, 3);
        System.out.println(drained + " " + pq.take() + " " + pq);
        for (Iterator<Integer> it = pq.iterator(); it.hasNext();) {
            if (it.next() == 8) it.remove();
        }
        System.out.println(pq + " " + pq.contains(9) + " " + new PriorityBlockingQueue<Integer>(java.util.Arrays.asList(4, 2, 6, 1)));
        ArrayBlockingQueue<String> aq = new ArrayBlockingQueue<String>(1);
        System.out.println(aq.offer("a") + " " + aq.offer("b") + " " + aq.poll() + " " + aq.poll());
        try {
            aq.offer(null);
        } catch (NullPointerException e) {
            System.out.println("NullPointerException");
        }
    }

    static void executors() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Integer>> fs = new ArrayList<Future<Integer>>();
        for (int i = 0; i < 20; i++) {
            final int x = i;
            fs.add(pool.submit(new Callable<Integer>() {
                public Integer call() {
                    return x * x;
                }
            }));
        }
        int sum = 0;
        for (Future<Integer> f : fs) sum += f.get();
        System.out.println("sum of squares " + sum + " done " + fs.get(19).isDone());
        Future<?> bad = pool.submit(new Runnable() {
            public void run() {
                throw new IllegalStateException("task failed");
            }
        });
        try {
            bad.get();
        } catch (ExecutionException e) {
            System.out.println("ExecutionException cause " + e.getCause());
        }
        final String[] name = new String[1];
        System.out.println("submit result " + pool.submit(new Runnable() {
            public void run() {
                name[0] = Thread.currentThread().getName();
            }
        }, "R").get() + " on pool thread " + name[0].matches("pool-1-thread-[123]"));
        List<Callable<String>> calls = new ArrayList<Callable<String>>();
        for (final String s : new String[] {"a", "b", "c"}) {
            calls.add(new Callable<String>() {
                public String call() {
                    return s + s;
                }
            });
        }
        StringBuilder sb = new StringBuilder();
        for (Future<String> f : pool.invokeAll(calls)) sb.append(f.get()).append(' ');
        System.out.println("invokeAll " + sb);
        pool.shutdown();
        System.out.println("shutdown " + pool.isShutdown() + " terminated " + pool.awaitTermination(10, TimeUnit.SECONDS) + " " + pool.isTerminated());
        try {
            pool.execute(new Runnable() {
                public void run() {
                }
            });
        } catch (RejectedExecutionException e) {
            System.out.println("RejectedExecutionException");
        }

        // A queued task cancelled before it runs never runs.
        ExecutorService single = Executors.newSingleThreadExecutor();
        final CountDownLatch gate = new CountDownLatch(1);
        final int[] ran = new int[1];
        Future<?> blocker = single.submit(new Callable<Object>() {
            public Object call() throws Exception {
                gate.await();
                return Thread.currentThread().getName();
            }
        });
        Future<?> queued = single.submit(new Runnable() {
            public void run() {
                ran[0]++;
            }
        });
        System.out.println("cancel " + queued.cancel(false) + " " + queued.isCancelled() + " " + queued.isDone() + " again " + queued.cancel(true));
        try {
            blocker.get(1, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.out.println("TimeoutException");
        }
        gate.countDown();
        System.out.println("blocker ran on " + blocker.get());
        try {
            queued.get();
        } catch (CancellationException e) {
            System.out.println("CancellationException");
        }
        single.shutdown();
        single.awaitTermination(10, TimeUnit.SECONDS);
        System.out.println("cancelled task ran " + ran[0] + " times");

        ExecutorService cached = Executors.newCachedThreadPool();
        final AtomicIntegerArray hits = new AtomicIntegerArray(1);
        for (int i = 0; i < 5; i++) {
            cached.execute(new Runnable() {
                public void run() {
                    hits.incrementAndGet(0);
                }
            });
        }
        cached.shutdown();
        System.out.println("cached " + cached.awaitTermination(10, TimeUnit.SECONDS) + " hits " + hits.get(0));
        FutureTask<String> ft = new FutureTask<String>(Executors.callable(new Runnable() {
            public void run() {
            }
        }, "direct"));
        ft.run();
        System.out.println(ft.get() + " " + ft.isDone());
    }

    static void atomics() {
        AtomicLongArray la = new AtomicLongArray(new long[] {1, 2, 3});
        System.out.println(la.getAndAdd(0, 10) + " " + la.addAndGet(1, 5) + " " + la.incrementAndGet(2) + " " + la.compareAndSet(0, 11, 0) + " " + la.compareAndSet(0, 11, 1) + " " + la);
        AtomicReferenceArray<String> ra = new AtomicReferenceArray<String>(2);
        String a = "a";
        System.out.println(ra.compareAndSet(0, null, a) + " " + ra.compareAndSet(0, "b", "c") + " " + ra.getAndSet(1, "z") + " " + ra + " " + ra.length());
        try {
            ra.get(2);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IndexOutOfBoundsException");
        }
    }

    static void timeUnits() {
        System.out.println(TimeUnit.SECONDS.toMillis(3) + " " + TimeUnit.MILLISECONDS.toSeconds(2999) + " " + TimeUnit.DAYS.toHours(2) + " " + TimeUnit.HOURS.toNanos(Long.MAX_VALUE / 1000) + " " + TimeUnit.NANOSECONDS.convert(-5, TimeUnit.DAYS) + " " + TimeUnit.MINUTES.convert(Long.MIN_VALUE, TimeUnit.DAYS) + " " + TimeUnit.valueOf("MICROSECONDS").ordinal() + " " + TimeUnit.values().length);
    }

    static void checksums() {
        byte[] data = new byte[10000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 31 + (i >> 7));
        CRC32 crc = new CRC32();
        Adler32 adler = new Adler32();
        System.out.println(crc.getValue() + " " + adler.getValue());
        crc.update("123456789".getBytes());
        adler.update("Wikipedia".getBytes());
        System.out.println(Long.toHexString(crc.getValue()) + " " + Long.toHexString(adler.getValue()));
        crc.reset();
        adler.reset();
        crc.update(data, 5, data.length - 5);
        adler.update(data);
        System.out.println(crc.getValue() + " " + adler.getValue());
        crc.update(0x1ff);
        adler.update(-1);
        System.out.println(crc.getValue() + " " + adler.getValue());
        try {
            crc.update(data, 9999, 2);
        } catch (ArrayIndexOutOfBoundsException e) {
            System.out.println("ArrayIndexOutOfBoundsException");
        }
    }

    static void security() {
        Integer r = AccessController.doPrivileged(new PrivilegedAction<Integer>() {
            public Integer run() {
                return 39;
            }
        });
        System.out.println("privileged " + r);
        try {
            AccessController.doPrivileged(new PrivilegedExceptionAction<Object>() {
                public Object run() throws Exception {
                    throw new java.io.IOException("disk");
                }
            });
        } catch (PrivilegedActionException e) {
            System.out.println(e.getException());
        }
    }

    static void zones() {
        String[] ids = {"UTC", "GMT", "GMT+5", "GMT-0130", "GMT+05:30", "GMT+24", "Nowhere/Zone", "GMT+5:3"};
        for (String id : ids) {
            TimeZone z = TimeZone.getTimeZone(id);
            System.out.println(id + " -> " + z.getID() + " " + z.getRawOffset() + " " + z.getOffset(0L) + " " + z.useDaylightTime() + " " + z.getDSTSavings());
        }
        TimeZone.setDefault(TimeZone.getTimeZone("GMT+01:00"));
        System.out.println(TimeZone.getDefault().getID() + " " + TimeZone.getDefault().getRawOffset() + " " + TimeZone.getTimeZone("UTC").hasSameRules(TimeZone.getTimeZone("GMT")));
    }
}
