import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

// Finalization as the Java platform defines it: finalize() runs once per
// object after a collection finds it unreachable; it may resurrect the
// object; weak references are cleared before it runs and phantom ones are
// enqueued only after the object is finally gone; what it throws is
// ignored.
public class Main {
    static final List<Integer> finalized = Collections.synchronizedList(new ArrayList<Integer>());
    static volatile Resurrect saved;
    static volatile int resurrections;

    static class F {
        final int id;

        F(int id) {
            this.id = id;
        }

        protected void finalize() {
            finalized.add(id);
        }
    }

    static class Thrower extends F {
        Thrower(int id) {
            super(id);
        }

        protected void finalize() {
            finalized.add(id);
            throw new RuntimeException("ignored");
        }
    }

    static class Resurrect {
        protected void finalize() {
            resurrections++;
            saved = this;
        }
    }

    static void collect() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            System.runFinalization();
        }
    }

    static WeakReference<F> makeGarbage() {
        for (int i = 0; i < 5; i++) {
            new F(i);
        }
        new Thrower(5);
        return new WeakReference<F>(new F(6));
    }

    public static void main(String[] args) throws Exception {
        F kept = new F(100);
        WeakReference<F> weak = makeGarbage();
        collect();
        // The JVM's finalizer thread runs when it gets to it: under load a
        // round or two may pass before all seven are finalized (droidprof's
        // VM finalizes them in the first).
        for (int i = 0; i < 100 && finalized.size() < 7; i++) {
            Thread.sleep(10);
            collect();
        }
        List<Integer> ids = new ArrayList<Integer>(finalized);
        Collections.sort(ids);
        System.out.println("finalized: " + ids + ", weak cleared: " + (weak.get() == null));
        System.out.println("still reachable, not finalized: " + kept.id);

        ReferenceQueue<Object> q = new ReferenceQueue<Object>();
        PhantomReference<Object> phantom = makeResurrectable(q);
        collect();
        // Waited for as above: a resurrection that lands after "saved = null"
        // below would keep the object alive for good.
        for (int i = 0; i < 100 && saved == null; i++) {
            Thread.sleep(10);
            collect();
        }
        System.out.println("resurrected: " + (saved != null) + ", finalize calls: " + resurrections
                + ", phantom enqueued: " + (q.poll() != null));
        saved = null;
        collect();
        Object enqueued = q.remove(100);
        for (int i = 0; i < 100 && enqueued == null; i++) {
            collect();
            enqueued = q.remove(100);
        }
        System.out.println("finalize calls after the second death: " + resurrections
                + ", phantom enqueued: " + (enqueued == phantom));
    }

    static PhantomReference<Object> makeResurrectable(ReferenceQueue<Object> q) {
        return new PhantomReference<Object>(new Resurrect(), q);
    }
}
