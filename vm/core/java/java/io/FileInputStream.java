package java.io;

import java.nio.channels.FileChannel;
import java.nio.channels.VMFileChannel;

/** Reads bytes from a file. */
public class FileInputStream extends InputStream {
    private final FileDescriptor fd;
    private final boolean owned; // opened here, so closed here
    private boolean closed;
    private FileChannel channel;

    public FileInputStream(String name) throws FileNotFoundException {
        this(new File(name));
    }

    public FileInputStream(File file) throws FileNotFoundException {
        this.fd = new FileDescriptor(VMFiles.open(file.getPath(), 0));
        this.owned = true;
    }

    public FileInputStream(FileDescriptor fdObj) {
        if (fdObj == null) {
            throw new NullPointerException("fdObj == null");
        }
        this.fd = fdObj;
        this.owned = false;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream Closed");
        }
    }

    public int read() throws IOException {
        byte[] b = new byte[1];
        return read(b, 0, 1) < 0 ? -1 : b[0] & 0xff;
    }

    public int read(byte[] b, int off, int len) throws IOException {
        checkOpen();
        return VMFiles.read(fd.fd, b, off, len);
    }

    public long skip(long n) throws IOException {
        checkOpen();
        if (n <= 0) {
            return 0;
        }
        long pos = VMFiles.seek(fd.fd, 0, 1);
        long end = VMFiles.size(fd.fd);
        long to = Math.min(end, pos + n);
        VMFiles.seek(fd.fd, to, 0);
        return to - pos;
    }

    public int available() throws IOException {
        checkOpen();
        long left = VMFiles.size(fd.fd) - VMFiles.seek(fd.fd, 0, 1);
        return (int) Math.max(0, Math.min(left, Integer.MAX_VALUE));
    }

    public void close() throws IOException {
        if (!closed) {
            closed = true;
            if (owned) {
                VMFiles.close(fd.fd);
            }
        }
    }

    public final FileDescriptor getFD() throws IOException {
        return fd;
    }

    public FileChannel getChannel() {
        synchronized (this) {
            if (channel == null) {
                channel = new VMFileChannel(fd.fd, true, false, this);
            }
            return channel;
        }
    }
}
