package java.lang;

/**
 * Loads classes by name. The VM has one namespace (the boot class path,
 * then the application's DEX files), which the system class loader
 * stands for; a subclass may find classes of its own with findClass, but
 * cannot define new ones from bytes (as on Android, where defineClass
 * throws). Assertion status is fixed by the VM (assertions are off), so
 * the assertion-status setters do nothing.
 */
public abstract class ClassLoader {
    private static ClassLoader system;

    private final ClassLoader parent;

    protected ClassLoader() {
        this(getSystemClassLoader());
    }

    protected ClassLoader(ClassLoader parent) {
        this.parent = parent;
    }

    // The boot class loader's constructor: it has no parent.
    ClassLoader(Void unused) {
        this.parent = null;
    }

    public static synchronized ClassLoader getSystemClassLoader() {
        if (system == null) {
            system = new SystemClassLoader();
        }
        return system;
    }

    public final ClassLoader getParent() {
        return parent;
    }

    public Class<?> loadClass(String name) throws ClassNotFoundException {
        return loadClass(name, false);
    }

    /** Asks the parent (or the VM, for the system loader) first, then findClass. */
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        try {
            if (parent != null) {
                return parent.loadClass(name, false);
            }
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            return findClass(name);
        }
    }

    protected Class<?> findClass(String name) throws ClassNotFoundException {
        throw new ClassNotFoundException(name);
    }

    protected final Class<?> defineClass(String name, byte[] b, int off, int len) throws ClassFormatError {
        throw new UnsupportedOperationException("can't load this type of class file");
    }

    protected final Class<?> defineClass(byte[] b, int off, int len) throws ClassFormatError {
        throw new UnsupportedOperationException("can't load this type of class file");
    }

    protected final void resolveClass(Class<?> c) {
    }

    protected final Class<?> findLoadedClass(String name) {
        return null;
    }

    protected final Class<?> findSystemClass(String name) throws ClassNotFoundException {
        return Class.forName(name);
    }

    public void setDefaultAssertionStatus(boolean enabled) {
    }

    public void setPackageAssertionStatus(String packageName, boolean enabled) {
    }

    public void setClassAssertionStatus(String className, boolean enabled) {
    }

    public void clearAssertionStatus() {
    }

    private static final class SystemClassLoader extends ClassLoader {
        SystemClassLoader() {
            super(BootClassLoader.getInstance());
        }

        protected Class<?> findClass(String name) throws ClassNotFoundException {
            return Class.forName(name);
        }
    }
}
