// RootKinds lists a heap dump's GC roots as VisualVM's heap library (an
// HPROF reader droidprof did not write) reads them: one line per root,
// "kind<TAB>class of the object<TAB>frame", frame being the class and
// method of the stack frame a Java frame or JNI local root names.
// Run: java -cp org-graalvm-visualvm-lib-jfluid-heap.jar RootKinds.java DUMP
import java.io.File;
import org.graalvm.visualvm.lib.jfluid.heap.*;

public class RootKinds {
    public static void main(String[] args) throws Exception {
        Heap heap = HeapFactory.createHeap(new File(args[0]));
        for (GCRoot r : heap.getGCRoots()) {
            String frame = "";
            ThreadObjectGCRoot th = null;
            int n = -1;
            if (r instanceof JavaFrameGCRoot) {
                th = ((JavaFrameGCRoot) r).getThreadGCRoot();
                n = ((JavaFrameGCRoot) r).getFrameNumber();
            } else if (r instanceof JniLocalGCRoot) {
                th = ((JniLocalGCRoot) r).getThreadGCRoot();
                n = ((JniLocalGCRoot) r).getFrameNumber();
            }
            if (th != null) {
                StackTraceElement[] st = th.getStackTrace();
                frame = st != null && n >= 0 && n < st.length ? st[n].getClassName() + "." + st[n].getMethodName() : "?";
            }
            Instance in = r.getInstance();
            System.out.println(r.getKind() + "\t" + (in == null ? "null" : in.getJavaClass().getName()) + "\t" + frame);
        }
    }
}
