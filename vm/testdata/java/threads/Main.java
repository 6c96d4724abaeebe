// Threads: start/join, synchronized counters, wait/notify hand-off,
// sleep, currentThread, uncaught exceptions in other threads.
public class Main {
    static int counter;
    static synchronized void inc() { counter++; }

    static final Object lock = new Object();
    static int turn;

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(new Runnable() {
                public void run() { for (int k = 0; k < 10000; k++) inc(); }
            }, "worker-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("counter " + counter);

        // Ping-pong with wait/notify: strict alternation.
        final StringBuilder log = new StringBuilder();
        Thread pong = new Thread() {
            public void run() {
                for (int i = 0; i < 5; i++) {
                    synchronized (lock) {
                        while (turn != 1) { try { lock.wait(); } catch (InterruptedException e) { return; } }
                        log.append("pong").append(i).append(' ');
                        turn = 0;
                        lock.notifyAll();
                    }
                }
            }
        };
        pong.start();
        for (int i = 0; i < 5; i++) {
            synchronized (lock) {
                while (turn != 0) lock.wait();
                log.append("ping").append(i).append(' ');
                turn = 1;
                lock.notifyAll();
            }
        }
        pong.join();
        System.out.println(log.toString().trim());

        Thread sleeper = new Thread(new Runnable() {
            public void run() {
                try { Thread.sleep(10000); System.out.println("not interrupted"); }
                catch (InterruptedException e) { System.out.println("interrupted " + Thread.currentThread().getName()); }
            }
        }, "sleeper");
        sleeper.start();
        sleeper.interrupt();
        sleeper.join();
        Thread.sleep(5);
        System.out.println(Thread.currentThread().getName() + " alive=" + sleeper.isAlive());
    }
}
