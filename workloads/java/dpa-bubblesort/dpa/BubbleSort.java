package dpa;

import java.util.Random;

/**
 * DPA method workload: bubble sort.
 *
 * <p>Profiled method: {@code dpa.BubbleSort.sort([I)V}, which sorts an array
 * of n pseudo-random ints (seed 7) in place. Argument: n (default 1400).
 * Prints whether the result is sorted, its first and last element and a
 * position-weighted checksum.
 */
public final class BubbleSort {
    private BubbleSort() {}

    /** Sorts a into ascending order by bubble sort. */
    public static void sort(int[] a) {
        for (int end = a.length - 1; end > 0; end--) {
            boolean swapped = false;
            for (int i = 0; i < end; i++) {
                if (a[i] > a[i + 1]) {
                    int t = a[i];
                    a[i] = a[i + 1];
                    a[i + 1] = t;
                    swapped = true;
                }
            }
            if (!swapped) {
                break;
            }
        }
    }

    static int[] input(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1400;
        Random r = new Random(7);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextInt(100000) - 50000;
        }
        return a;
    }

    static void report(int[] a) {
        boolean sorted = true;
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            if (i > 0 && a[i - 1] > a[i]) {
                sorted = false;
            }
            sum += (long) a[i] * (i + 1);
        }
        System.out.println("bubbleSort(" + a.length + "): sorted=" + sorted
                + " first=" + a[0] + " last=" + a[a.length - 1] + " checksum=" + sum);
    }

    public static void main(String[] args) {
        int[] a = input(args);
        sort(a);
        report(a);
    }
}
