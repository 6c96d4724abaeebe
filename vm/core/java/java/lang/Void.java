package java.lang;

/**
 * The uninstantiable holder of void's class object. TYPE is not final and
 * has no initializer: there is no void[] class to derive it from and no
 * native for it, so the VM stores the primitive class into it (README.md).
 */
public final class Void {
    public static Class<Void> TYPE;

    private Void() {
    }
}
