package java.lang;

/**
 * The loader of the core library's classes, as Android's
 * java.lang.BootClassLoader: Class.getClassLoader returns it for boot
 * classes (the Java platform returns null), and it is the system class
 * loader's parent.
 */
class BootClassLoader extends ClassLoader {
    private static final BootClassLoader INSTANCE = new BootClassLoader();

    private BootClassLoader() {
        super((Void) null);
    }

    static BootClassLoader getInstance() {
        return INSTANCE;
    }

    protected Class<?> findClass(String name) throws ClassNotFoundException {
        return Class.forName(name, false, null);
    }

    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        return findClass(name);
    }
}
