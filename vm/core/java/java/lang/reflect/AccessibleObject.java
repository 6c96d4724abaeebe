package java.lang.reflect;

/**
 * The accessible flag of a member. Access checks are not enforced yet (as
 * on ART for most callers in tests); the flag matters for setting final
 * fields.
 */
public class AccessibleObject {
    boolean override;

    protected AccessibleObject() {
    }

    public void setAccessible(boolean flag) throws SecurityException {
        override = flag;
    }

    public static void setAccessible(AccessibleObject[] array, boolean flag) throws SecurityException {
        for (AccessibleObject o : array) {
            o.override = flag;
        }
    }

    public boolean isAccessible() {
        return override;
    }
}
