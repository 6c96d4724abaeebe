package java.lang.reflect;

/** Handles the calls made on a proxy instance. */
public interface InvocationHandler {
    Object invoke(Object proxy, Method method, Object[] args) throws Throwable;
}
