package dpa;

/**
 * DPA method workload: string concatenation.
 *
 * <p>Profiled method: {@code dpa.Concat.concat(I)Ljava/lang/String;}, which
 * builds a string of n comma-separated numbers with {@code +=} (javac turns
 * each {@code +=} into a new StringBuilder), so the work is quadratic in n.
 * Argument: n (default 2500). Prints the length of the string and a
 * checksum of its characters.
 */
public final class Concat {
    private Concat() {}

    /** Returns "0,1,2,...,n-1," built by repeated string concatenation. */
    public static String concat(int n) {
        String s = "";
        for (int i = 0; i < n; i++) {
            s += i + ",";
        }
        return s;
    }

    static int size(String[] args) {
        return args.length > 0 ? Integer.parseInt(args[0]) : 2500;
    }

    static void report(int n, String s) {
        long sum = 0;
        for (int i = 0; i < s.length(); i++) {
            sum = (sum * 31 + s.charAt(i)) % 1000000007L;
        }
        System.out.println("concat(" + n + "): length=" + s.length() + " checksum=" + sum);
    }

    public static void main(String[] args) {
        int n = size(args);
        report(n, concat(n));
    }
}
