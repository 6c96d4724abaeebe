package java.nio.channels;

import java.io.Closeable;

/** A connection to an I/O entity that is open until closed. */
public interface Channel extends Closeable {
    boolean isOpen();
}
