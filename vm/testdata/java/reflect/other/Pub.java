package other;

/** A public class with members of every access, for the access checks. */
public class Pub {
    public static int open = 1;
    static int pkg = 2;
    protected static int prot = 3;
    private static int priv = 4;

    public Pub() {
    }

    private Pub(int x) {
    }

    static String pkgMethod() {
        return "pkg";
    }

    protected static String protMethod() {
        return "prot";
    }

    private static String privMethod() {
        return "priv";
    }

    public static String openMethod() {
        return "open";
    }
}
