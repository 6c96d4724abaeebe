// Holders keeps one object by each kind of holder a heap dump tells
// apart — a class static, a local of a running frame, a locked monitor,
// the thread — and waits on stdin, inside hold, while jmap dumps its heap.
// TestRootKinds runs the same program, in smali, on droidprof's VM.
public class Holders {
    static Object kept;

    public static void main(String[] args) throws Exception {
        kept = new StaticHeld();
        hold();
    }

    static void hold() throws Exception {
        FrameHeld local = new FrameHeld();
        Locked lock = new Locked();
        synchronized (lock) {
            System.out.println("ready");
            System.out.flush();
            System.in.read();
        }
        System.out.println(local.hashCode() != 0);
    }
}

class StaticHeld {}

class FrameHeld {}

class Locked {}
