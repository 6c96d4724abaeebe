package java.lang;

/** A resource for the try-with-resources statement. */
public interface AutoCloseable {
    void close() throws Exception;
}
