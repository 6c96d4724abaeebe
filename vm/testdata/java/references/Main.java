import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

// java.lang.ref against the collector: after System.gc, weak and phantom
// references to unreachable objects are cleared and enqueued, references
// to reachable ones are not, soft referents survive a collection that has
// room; queues hand each reference out once. Referents are made in
// helper methods so that no frame still holds them.
public class Main {
    static final ReferenceQueue<Object> queue = new ReferenceQueue<Object>();
    static Object kept = new Object();

    static WeakReference<Object> weakToGarbage() {
        return new WeakReference<Object>(new int[100], queue);
    }

    static PhantomReference<Object> phantomToGarbage() {
        return new PhantomReference<Object>(new StringBuilder("phantom"), queue);
    }

    static SoftReference<Object> softToGarbage() {
        return new SoftReference<Object>(new long[10]);
    }

    public static void main(String[] args) throws Exception {
        WeakReference<Object> weak = weakToGarbage();
        PhantomReference<Object> phantom = phantomToGarbage();
        SoftReference<Object> soft = softToGarbage();
        WeakReference<Object> live = new WeakReference<Object>(kept, queue);
        WeakReference<Object> noQueue = new WeakReference<Object>(new Object[3]);
        System.out.println("before: weak " + (weak.get() != null) + " phantom " + phantom.get() + " live " + (live.get() == kept) + " enqueued " + weak.isEnqueued());

        // Unreachable referents go at a collection; their references
        // arrive at the queue (through a daemon, so wait for them).
        System.gc();
        List<Reference<?>> got = new ArrayList<Reference<?>>();
        while (got.size() < 2) {
            Reference<?> r = queue.remove(10000);
            if (r == null) {
                System.out.println("timed out waiting for the queue");
                break;
            }
            got.add(r);
        }
        System.out.println("queued weak " + got.contains(weak) + " phantom " + got.contains(phantom) + " live " + got.contains(live));
        System.out.println("after: weak " + weak.get() + " noQueue " + noQueue.get() + " live " + (live.get() == kept) + " soft " + (soft.get() != null));
        System.out.println("poll " + queue.poll() + " remove(1) " + queue.remove(1));

        // Enqueued at most once; clear and enqueue by hand.
        System.out.println("enqueue again " + weak.enqueue() + " live " + live.enqueue() + " " + live.isEnqueued() + " " + (queue.poll() == live) + " " + live.isEnqueued());
        live.clear();
        System.out.println("cleared " + live.get() + " " + noQueue.enqueue());
        // Soft referents go before an OutOfMemoryError does: 200 MiB held
        // only softly fits a 64 MiB heap.
        List<SoftReference<byte[]>> softs = new ArrayList<SoftReference<byte[]>>();
        for (int i = 0; i < 200; i++) {
            softs.add(new SoftReference<byte[]>(new byte[1 << 20]));
        }
        int cleared = 0;
        for (SoftReference<byte[]> s : softs) {
            if (s.get() == null) cleared++;
        }
        System.out.println("soft: no OutOfMemoryError, some cleared " + (cleared > 0) + ", newest kept " + (softs.get(199).get() != null));
        try {
            queue.remove(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("IllegalArgumentException");
        }
    }
}
