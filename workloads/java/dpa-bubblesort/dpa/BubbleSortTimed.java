package dpa;

/**
 * Source-instrumented variant of {@link BubbleSort}: same stdout, and the
 * elapsed System.nanoTime() around the call of
 * {@code dpa.BubbleSort.sort([I)V} on stderr.
 */
public final class BubbleSortTimed {
    private BubbleSortTimed() {}

    public static void main(String[] args) {
        int[] a = BubbleSort.input(args);
        long t0 = System.nanoTime();
        BubbleSort.sort(a);
        long t1 = System.nanoTime();
        BubbleSort.report(a);
        System.err.println("dpa.BubbleSort.sort elapsed_ns=" + (t1 - t0));
    }
}
