package java.io;

import java.nio.channels.FileChannel;
import java.nio.channels.VMFileChannel;

/** Writes bytes to a file or to a standard stream's descriptor. */
public class FileOutputStream extends OutputStream {
    private final FileDescriptor fd;
    private final boolean owned; // opened here, so closed here
    private boolean closed;
    private FileChannel channel;

    public FileOutputStream(String name) throws FileNotFoundException {
        this(new File(name), false);
    }

    public FileOutputStream(String name, boolean append) throws FileNotFoundException {
        this(new File(name), append);
    }

    public FileOutputStream(File file) throws FileNotFoundException {
        this(file, false);
    }

    public FileOutputStream(File file, boolean append) throws FileNotFoundException {
        this.fd = new FileDescriptor(VMFiles.open(file.getPath(), append ? 2 : 1));
        this.owned = true;
    }

    public FileOutputStream(FileDescriptor fdObj) {
        if (fdObj == null) {
            throw new NullPointerException();
        }
        this.fd = fdObj;
        this.owned = false;
    }

    // The standard streams go to the VM's buffered stdout and stderr.
    private static native void writeBytes(int fd, byte[] b, int off, int len);

    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    public void write(byte[] b, int off, int len) throws IOException {
        if (off < 0 || len < 0 || off > b.length - len) {
            throw new IndexOutOfBoundsException();
        }
        if (closed) {
            throw new IOException("Stream Closed");
        }
        if (fd.fd <= 2) {
            writeBytes(fd.fd, b, off, len);
        } else {
            VMFiles.write(fd.fd, b, off, len);
        }
    }

    public final FileDescriptor getFD() {
        return fd;
    }

    public void close() throws IOException {
        if (!closed && owned) {
            closed = true;
            VMFiles.close(fd.fd);
        }
    }

    public FileChannel getChannel() {
        synchronized (this) {
            if (channel == null) {
                channel = new VMFileChannel(fd.fd, false, true, this);
            }
            return channel;
        }
    }
}
