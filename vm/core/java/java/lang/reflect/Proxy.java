package java.lang.reflect;

/**
 * Classes the VM makes at run time that implement interfaces by sending
 * every call to an InvocationHandler. Proxy classes are final, extend this
 * class and are cached per list of interfaces. The VM has one class
 * loader for application classes, so the loader argument only names it.
 */
public class Proxy implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    protected InvocationHandler h;

    protected Proxy(InvocationHandler h) {
        this.h = h;
    }

    /** Returns a new instance of the proxy class for interfaces, calling h. */
    static Object newInstance(Class<?>[] interfaces, InvocationHandler h) {
        if (h == null) {
            throw new NullPointerException("h == null");
        }
        for (Class<?> i : interfaces) {
            if (!i.isInterface()) {
                throw new IllegalArgumentException(i.getName() + " is not an interface");
            }
        }
        Proxy p = (Proxy) allocate(proxyClass(interfaces.clone()));
        p.h = h;
        return p;
    }

    /** Returns an instance of the proxy class for interfaces that sends every call to h. */
    public static Object newProxyInstance(ClassLoader loader, Class<?>[] interfaces, InvocationHandler h)
            throws IllegalArgumentException {
        return newInstance(interfaces, h);
    }

    /** Returns the proxy class for interfaces. */
    public static Class<?> getProxyClass(ClassLoader loader, Class<?>... interfaces)
            throws IllegalArgumentException {
        for (Class<?> i : interfaces) {
            if (!i.isInterface()) {
                throw new IllegalArgumentException(i.getName() + " is not an interface");
            }
        }
        return proxyClass(interfaces.clone());
    }

    public static boolean isProxyClass(Class<?> cl) {
        return cl.getSuperclass() == Proxy.class && isProxyClass0(cl);
    }

    public static InvocationHandler getInvocationHandler(Object proxy) throws IllegalArgumentException {
        if (proxy == null || !isProxyClass(proxy.getClass())) {
            throw new IllegalArgumentException("not a proxy instance");
        }
        return ((Proxy) proxy).h;
    }

    /** Returns the (cached) proxy class implementing interfaces. */
    private static native Class<?> proxyClass(Class<?>[] interfaces);

    private static native boolean isProxyClass0(Class<?> cl);

    /** Returns an uninitialised instance of c, without running a constructor. */
    private static native Object allocate(Class<?> c);

    /**
     * Called by the VM for every call on a proxy: the interface method is
     * slot of decl; arguments and result travel as in VMReflection.
     */
    private static Object dispatch(Proxy proxy, Class<?> decl, int slot, long[] prims, Object[] refs, long[] result)
            throws Throwable {
        Method m = new Method(decl, slot);
        Class<?>[] p = m.params();
        Object[] args = null;
        if (p.length > 0) {
            args = new Object[p.length];
            for (int i = 0; i < p.length; i++) {
                args[i] = p[i].isPrimitive() ? VMReflection.box(prims[i], VMReflection.kind(p[i])) : refs[i];
            }
        }
        Object r;
        try {
            r = proxy.h.invoke(proxy, m, args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            // A checked exception the interface method does not declare.
            for (Class<?> declared : m.getExceptionTypes()) {
                if (declared.isInstance(t)) {
                    throw t;
                }
            }
            throw new UndeclaredThrowableException(t);
        }
        Class<?> ret = m.getReturnType();
        if (ret == void.class) {
            return null;
        }
        if (ret.isPrimitive()) {
            int to = VMReflection.kind(ret);
            int from = VMReflection.boxKind(r);
            if (r == null) {
                throw new NullPointerException("null result of a proxy method returning " + ret.getName());
            }
            if (from < 0 || !VMReflection.widens(from, to)) {
                throw new ClassCastException(r.getClass().getName() + " cannot be cast to " + ret.getName());
            }
            result[0] = VMReflection.widen(VMReflection.rawOf(r, from), from, to);
            return null;
        }
        if (r != null && !ret.isInstance(r)) {
            throw new ClassCastException(r.getClass().getName() + " cannot be cast to " + ret.getName());
        }
        return r;
    }
}
