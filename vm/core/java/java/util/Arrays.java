package java.util;

/**
 * Array utilities. Object arrays are sorted with a stable merge sort (so
 * the result equals Java's TimSort for any consistent comparator);
 * primitive arrays with a merge sort under the same total order as Java
 * (-0.0 before 0.0, NaN last).
 */
public class Arrays {
    private Arrays() {
    }

    // Runs up to this length are sorted by insertion.
    private static final int INSERTION_LIMIT = 7;

    static void rangeCheck(int length, int fromIndex, int toIndex) {
        if (fromIndex > toIndex) {
            throw new IllegalArgumentException("fromIndex(" + fromIndex + ") > toIndex(" + toIndex + ")");
        }
        if (fromIndex < 0) {
            throw new ArrayIndexOutOfBoundsException(fromIndex);
        }
        if (toIndex > length) {
            throw new ArrayIndexOutOfBoundsException(toIndex);
        }
    }

    /** Returns a new array of n elements with the same runtime type as a. */
    static Object[] newArrayLike(Object[] a, int n) {
        return (Object[]) java.lang.reflect.Array.newInstance(a.getClass().getComponentType(), n);
    }

    public static void sort(long[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(long[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        long[] tmp = new long[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(long[] a, long[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                long x = a[i];
                int j = i - 1;
                while (j >= lo && x < a[j]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(a[mid] < a[mid - 1])) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (a[j] < tmp[i]) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(long[] a, long key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(long[] a, int fromIndex, int toIndex, long key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (key < a[mid]) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(int[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(int[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        int[] tmp = new int[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && x < a[j]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(a[mid] < a[mid - 1])) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (a[j] < tmp[i]) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(int[] a, int key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(int[] a, int fromIndex, int toIndex, int key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (key < a[mid]) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(short[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(short[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        short[] tmp = new short[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(short[] a, short[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                short x = a[i];
                int j = i - 1;
                while (j >= lo && x < a[j]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(a[mid] < a[mid - 1])) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (a[j] < tmp[i]) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(short[] a, short key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(short[] a, int fromIndex, int toIndex, short key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (key < a[mid]) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(char[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(char[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        char[] tmp = new char[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(char[] a, char[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                char x = a[i];
                int j = i - 1;
                while (j >= lo && x < a[j]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(a[mid] < a[mid - 1])) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (a[j] < tmp[i]) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(char[] a, char key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(char[] a, int fromIndex, int toIndex, char key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (key < a[mid]) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(byte[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(byte[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        byte[] tmp = new byte[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(byte[] a, byte[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                byte x = a[i];
                int j = i - 1;
                while (j >= lo && x < a[j]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(a[mid] < a[mid - 1])) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (a[j] < tmp[i]) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(byte[] a, byte key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(byte[] a, int fromIndex, int toIndex, byte key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (key < a[mid]) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(double[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(double[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        double[] tmp = new double[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(double[] a, double[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                double x = a[i];
                int j = i - 1;
                while (j >= lo && Double.compare(x, a[j]) < 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(Double.compare(a[mid], a[mid - 1]) < 0)) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (Double.compare(a[j], tmp[i]) < 0) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(double[] a, double key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(double[] a, int fromIndex, int toIndex, double key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Double.compare(a[mid], key) < 0) {
                lo = mid + 1;
            } else if (Double.compare(key, a[mid]) < 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static void sort(float[] a) {
        sort(a, 0, a.length);
    }

    public static void sort(float[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        float[] tmp = new float[toIndex - fromIndex];
        mergeSort(a, tmp, fromIndex, toIndex);
    }

    private static void mergeSort(float[] a, float[] tmp, int lo, int hi) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                float x = a[i];
                int j = i - 1;
                while (j >= lo && Float.compare(x, a[j]) < 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (!(Float.compare(a[mid], a[mid - 1]) < 0)) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        while (i < n && j < hi) {
            if (Float.compare(a[j], tmp[i]) < 0) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
    }

    public static int binarySearch(float[] a, float key) {
        return binarySearch(a, 0, a.length, key);
    }

    public static int binarySearch(float[] a, int fromIndex, int toIndex, float key) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Float.compare(a[mid], key) < 0) {
                lo = mid + 1;
            } else if (Float.compare(key, a[mid]) < 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static boolean equals(long[] a, long[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(long[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Long.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(long[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(long[] a, long val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(long[] a, int fromIndex, int toIndex, long val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static long[] copyOf(long[] original, int newLength) {
        long[] c = new long[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static long[] copyOfRange(long[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        long[] c = new long[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(int[] a, int[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(int[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Integer.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(int[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(int[] a, int val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(int[] a, int fromIndex, int toIndex, int val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static int[] copyOf(int[] original, int newLength) {
        int[] c = new int[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static int[] copyOfRange(int[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        int[] c = new int[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(short[] a, short[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(short[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Short.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(short[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(short[] a, short val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(short[] a, int fromIndex, int toIndex, short val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static short[] copyOf(short[] original, int newLength) {
        short[] c = new short[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static short[] copyOfRange(short[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        short[] c = new short[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(char[] a, char[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(char[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Character.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(char[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(char[] a, char val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(char[] a, int fromIndex, int toIndex, char val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static char[] copyOf(char[] original, int newLength) {
        char[] c = new char[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static char[] copyOfRange(char[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        char[] c = new char[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(byte[] a, byte[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(byte[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Byte.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(byte[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(byte[] a, byte val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(byte[] a, int fromIndex, int toIndex, byte val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static byte[] copyOf(byte[] original, int newLength) {
        byte[] c = new byte[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static byte[] copyOfRange(byte[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        byte[] c = new byte[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(double[] a, double[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (Double.doubleToLongBits(a[i]) != Double.doubleToLongBits(b[i])) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(double[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Double.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(double[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(double[] a, double val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(double[] a, int fromIndex, int toIndex, double val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static double[] copyOf(double[] original, int newLength) {
        double[] c = new double[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static double[] copyOfRange(double[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        double[] c = new double[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(float[] a, float[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (Float.floatToIntBits(a[i]) != Float.floatToIntBits(b[i])) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(float[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Float.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(float[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(float[] a, float val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(float[] a, int fromIndex, int toIndex, float val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static float[] copyOf(float[] original, int newLength) {
        float[] c = new float[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static float[] copyOfRange(float[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        float[] c = new float[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static boolean equals(boolean[] a, boolean[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(boolean[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + Boolean.hashCode(a[i]);
        }
        return h;
    }

    public static String toString(boolean[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void fill(boolean[] a, boolean val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(boolean[] a, int fromIndex, int toIndex, boolean val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static boolean[] copyOf(boolean[] original, int newLength) {
        boolean[] c = new boolean[newLength];
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    public static boolean[] copyOfRange(boolean[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        boolean[] c = new boolean[n];
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    public static void sort(Object[] a) {
        sort(a, 0, a.length, null);
    }

    public static void sort(Object[] a, int fromIndex, int toIndex) {
        sort(a, fromIndex, toIndex, null);
    }

    public static <T> void sort(T[] a, Comparator<? super T> c) {
        sort(a, 0, a.length, c);
    }

    /** Stable merge sort; a null comparator means natural ordering. */
    public static <T> void sort(T[] a, int fromIndex, int toIndex, Comparator<? super T> c) {
        rangeCheck(a.length, fromIndex, toIndex);
        if (toIndex - fromIndex < 2) {
            return;
        }
        Object[] tmp = new Object[(toIndex - fromIndex + 1) / 2 + 1];
        mergeSort(a, tmp, fromIndex, toIndex, c);
    }

    @SuppressWarnings("unchecked")
    private static <T> int cmp(Comparator<? super T> c, Object x, Object y) {
        if (c == null) {
            return ((Comparable<Object>) x).compareTo(y);
        }
        return c.compare((T) x, (T) y);
    }

    private static <T> void mergeSort(Object[] a, Object[] tmp, int lo, int hi, Comparator<? super T> c) {
        if (hi - lo <= INSERTION_LIMIT) {
            for (int i = lo + 1; i < hi; i++) {
                Object x = a[i];
                int j = i - 1;
                while (j >= lo && cmp(c, x, a[j]) < 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, c);
        mergeSort(a, tmp, mid, hi, c);
        if (cmp(c, a[mid], a[mid - 1]) >= 0) {
            return;
        }
        int n = mid - lo;
        System.arraycopy(a, lo, tmp, 0, n);
        int i = 0;
        int j = mid;
        int k = lo;
        // Taking from the left run on ties keeps the sort stable.
        while (i < n && j < hi) {
            if (cmp(c, a[j], tmp[i]) < 0) {
                a[k++] = a[j++];
            } else {
                a[k++] = tmp[i++];
            }
        }
        while (i < n) {
            a[k++] = tmp[i++];
        }
        for (int x = 0; x < n; x++) {
            tmp[x] = null;
        }
    }

    public static int binarySearch(Object[] a, Object key) {
        return binarySearch(a, 0, a.length, key, null);
    }

    public static int binarySearch(Object[] a, int fromIndex, int toIndex, Object key) {
        return binarySearch(a, fromIndex, toIndex, key, null);
    }

    public static <T> int binarySearch(T[] a, T key, Comparator<? super T> c) {
        return binarySearch(a, 0, a.length, key, c);
    }

    public static <T> int binarySearch(T[] a, int fromIndex, int toIndex, T key, Comparator<? super T> c) {
        rangeCheck(a.length, fromIndex, toIndex);
        int lo = fromIndex;
        int hi = toIndex - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int r = cmp(c, a[mid], key);
            if (r < 0) {
                lo = mid + 1;
            } else if (r > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    public static boolean equals(Object[] a, Object[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!Objects.equals(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    public static int hashCode(Object[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + (a[i] == null ? 0 : a[i].hashCode());
        }
        return h;
    }

    public static int deepHashCode(Object[] a) {
        if (a == null) {
            return 0;
        }
        int h = 1;
        for (int i = 0; i < a.length; i++) {
            h = 31 * h + elementHash(a[i]);
        }
        return h;
    }

    private static int elementHash(Object e) {
        if (e instanceof Object[]) {
            return deepHashCode((Object[]) e);
        } else if (e instanceof int[]) {
            return hashCode((int[]) e);
        } else if (e instanceof long[]) {
            return hashCode((long[]) e);
        } else if (e instanceof short[]) {
            return hashCode((short[]) e);
        } else if (e instanceof char[]) {
            return hashCode((char[]) e);
        } else if (e instanceof byte[]) {
            return hashCode((byte[]) e);
        } else if (e instanceof boolean[]) {
            return hashCode((boolean[]) e);
        } else if (e instanceof float[]) {
            return hashCode((float[]) e);
        } else if (e instanceof double[]) {
            return hashCode((double[]) e);
        }
        return e == null ? 0 : e.hashCode();
    }

    public static boolean deepEquals(Object[] a, Object[] b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!deepEquals0(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    static boolean deepEquals0(Object x, Object y) {
        if (x == y) {
            return true;
        }
        if (x == null || y == null) {
            return false;
        }
        if (x instanceof Object[] && y instanceof Object[]) {
            return deepEquals((Object[]) x, (Object[]) y);
        } else if (x instanceof int[] && y instanceof int[]) {
            return equals((int[]) x, (int[]) y);
        } else if (x instanceof long[] && y instanceof long[]) {
            return equals((long[]) x, (long[]) y);
        } else if (x instanceof short[] && y instanceof short[]) {
            return equals((short[]) x, (short[]) y);
        } else if (x instanceof char[] && y instanceof char[]) {
            return equals((char[]) x, (char[]) y);
        } else if (x instanceof byte[] && y instanceof byte[]) {
            return equals((byte[]) x, (byte[]) y);
        } else if (x instanceof boolean[] && y instanceof boolean[]) {
            return equals((boolean[]) x, (boolean[]) y);
        } else if (x instanceof float[] && y instanceof float[]) {
            return equals((float[]) x, (float[]) y);
        } else if (x instanceof double[] && y instanceof double[]) {
            return equals((double[]) x, (double[]) y);
        }
        return x.equals(y);
    }

    public static String toString(Object[] a) {
        if (a == null) {
            return "null";
        }
        if (a.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder();
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(String.valueOf(a[i]));
        }
        return sb.append(']').toString();
    }

    public static String deepToString(Object[] a) {
        if (a == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        deepToString(a, sb, new ArrayList<Object[]>());
        return sb.toString();
    }

    private static void deepToString(Object[] a, StringBuilder sb, ArrayList<Object[]> open) {
        if (a.length == 0) {
            sb.append("[]");
            return;
        }
        open.add(a);
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object e = a[i];
            if (e == null) {
                sb.append("null");
            } else if (e instanceof Object[]) {
                boolean cycle = false;
                for (int k = 0; k < open.size(); k++) {
                    if (open.get(k) == e) {
                        cycle = true;
                    }
                }
                if (cycle) {
                    sb.append("[...]");
                } else {
                    deepToString((Object[]) e, sb, open);
                }
            } else if (e instanceof int[]) {
                sb.append(toString((int[]) e));
            } else if (e instanceof long[]) {
                sb.append(toString((long[]) e));
            } else if (e instanceof short[]) {
                sb.append(toString((short[]) e));
            } else if (e instanceof char[]) {
                sb.append(toString((char[]) e));
            } else if (e instanceof byte[]) {
                sb.append(toString((byte[]) e));
            } else if (e instanceof boolean[]) {
                sb.append(toString((boolean[]) e));
            } else if (e instanceof float[]) {
                sb.append(toString((float[]) e));
            } else if (e instanceof double[]) {
                sb.append(toString((double[]) e));
            } else {
                sb.append(e.toString());
            }
        }
        sb.append(']');
        open.remove(open.size() - 1);
    }

    public static void fill(Object[] a, Object val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(Object[] a, int fromIndex, int toIndex, Object val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    /** Copies into an array of original's type (see newArrayLike for the limits). */
    @SuppressWarnings("unchecked")
    public static <T> T[] copyOf(T[] original, int newLength) {
        if (newLength < 0) {
            throw new NegativeArraySizeException(String.valueOf(newLength));
        }
        T[] c = (T[]) newArrayLike(original, newLength);
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return c;
    }

    @SuppressWarnings("unchecked")
    public static <T, U> T[] copyOf(U[] original, int newLength, Class<? extends T[]> newType) {
        if (newLength < 0) {
            throw new NegativeArraySizeException(String.valueOf(newLength));
        }
        Object[] c;
        if ((Object) newType == (Object) Object[].class) {
            c = new Object[newLength];
        } else if ((Object) newType == original.getClass()) {
            c = newArrayLike(original, newLength);
        } else {
            c = newArrayLike(new Object[0], newLength);
        }
        System.arraycopy(original, 0, c, 0, Math.min(original.length, newLength));
        return (T[]) c;
    }

    @SuppressWarnings("unchecked")
    public static <T> T[] copyOfRange(T[] original, int from, int to) {
        int n = to - from;
        if (n < 0) {
            throw new IllegalArgumentException(from + " > " + to);
        }
        T[] c = (T[]) newArrayLike(original, n);
        System.arraycopy(original, from, c, 0, Math.min(original.length - from, n));
        return c;
    }

    @SafeVarargs
    public static <T> List<T> asList(T... a) {
        return new ArrayView<T>(a);
    }

    /** The fixed-size list view of an array that asList returns. */
    private static final class ArrayView<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        private final E[] a;

        ArrayView(E[] array) {
            a = Objects.requireNonNull(array);
        }

        public int size() {
            return a.length;
        }

        public Object[] toArray() {
            return copyOf(a, a.length, Object[].class);
        }

        public E get(int index) {
            return a[index];
        }

        public E set(int index, E element) {
            E old = a[index];
            a[index] = element;
            return old;
        }

        public int indexOf(Object o) {
            for (int i = 0; i < a.length; i++) {
                if (Objects.equals(o, a[i])) {
                    return i;
                }
            }
            return -1;
        }

        public boolean contains(Object o) {
            return indexOf(o) >= 0;
        }

        public void sort(Comparator<? super E> c) {
            Arrays.sort(a, c);
        }
    }
}
