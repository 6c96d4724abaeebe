import java.util.ArrayList;
import java.util.List;

// Exhausts the heap (the test runs both VMs with a 64 MiB limit; the JVM fits fewer big arrays in it): the
// program must get OutOfMemoryError, recover once the memory is dropped,
// and go on allocating.
public class Main {
    public static void main(String[] args) {
        List<long[]> hog = new ArrayList<long[]>();
        try {
            while (true) hog.add(new long[64 * 1024]);
        } catch (OutOfMemoryError e) {
            int n = hog.size();
            hog = null;
            System.out.println("OutOfMemoryError after more than 8 MiB: " + (n > 16));
        }
        long sum = 0;
        for (int i = 0; i < 1000; i++) sum += new long[10000].length;
        System.out.println("recovered " + sum);
        try {
            int[] huge = new int[Integer.MAX_VALUE - 8];
            System.out.println(huge.length);
        } catch (OutOfMemoryError e) {
            System.out.println("huge array refused");
        }
        List<Object> survivors = new ArrayList<Object>();
        for (int i = 0; i < 200000; i++) {
            Object o = new int[i % 50];
            if (i % 1000 == 0) survivors.add(o);
        }
        System.out.println("survivors " + survivors.size());
    }
}
