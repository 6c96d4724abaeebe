package java.io;

/** A destination of data that can be flushed. */
public interface Flushable {
    void flush() throws IOException;
}
