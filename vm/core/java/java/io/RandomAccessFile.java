package java.io;

import java.nio.channels.FileChannel;
import java.nio.channels.VMFileChannel;

/** Reads and writes a file at any offset. */
public class RandomAccessFile implements Closeable {
    private final FileDescriptor fd;
    private final boolean writable;
    private boolean closed;
    private FileChannel channel;

    public RandomAccessFile(String name, String mode) throws FileNotFoundException {
        this(new File(name), mode);
    }

    public RandomAccessFile(File file, String mode) throws FileNotFoundException {
        switch (mode) {
            case "r":
                writable = false;
                break;
            case "rw":
            case "rws":
            case "rwd":
                writable = true;
                break;
            default:
                throw new IllegalArgumentException("Invalid mode: " + mode);
        }
        this.fd = new FileDescriptor(VMFiles.open(file.getPath(), writable ? 3 : 0));
    }

    public final FileDescriptor getFD() throws IOException {
        return fd;
    }

    public final FileChannel getChannel() {
        synchronized (this) {
            if (channel == null) {
                channel = new VMFileChannel(fd.fd, true, writable, this);
            }
            return channel;
        }
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

    public int read(byte[] b) throws IOException {
        return read(b, 0, b.length);
    }

    public int read(byte[] b, int off, int len) throws IOException {
        checkOpen();
        return VMFiles.read(fd.fd, b, off, len);
    }

    public final void readFully(byte[] b) throws IOException {
        readFully(b, 0, b.length);
    }

    public final void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = read(b, off, len);
            if (n < 0) {
                throw new EOFException();
            }
            off += n;
            len -= n;
        }
    }

    public final int readInt() throws IOException {
        byte[] b = new byte[4];
        readFully(b);
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    public final long readLong() throws IOException {
        return ((long) readInt() << 32) | (readInt() & 0xffffffffL);
    }

    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        VMFiles.write(fd.fd, b, off, len);
    }

    public final void writeInt(int v) throws IOException {
        write(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
    }

    public final void writeLong(long v) throws IOException {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    public void seek(long pos) throws IOException {
        checkOpen();
        if (pos < 0) {
            throw new IOException("offset < 0: " + pos);
        }
        VMFiles.seek(fd.fd, pos, 0);
    }

    public long getFilePointer() throws IOException {
        checkOpen();
        return VMFiles.seek(fd.fd, 0, 1);
    }

    public int skipBytes(int n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        long pos = getFilePointer();
        long to = Math.min(length(), pos + n);
        seek(to);
        return (int) (to - pos);
    }

    public long length() throws IOException {
        checkOpen();
        return VMFiles.size(fd.fd);
    }

    public void setLength(long newLength) throws IOException {
        checkOpen();
        if (newLength < 0) {
            throw new IllegalArgumentException("newLength < 0");
        }
        VMFiles.truncate(fd.fd, newLength);
        if (getFilePointer() > newLength) {
            seek(newLength);
        }
    }

    public void close() throws IOException {
        if (!closed) {
            closed = true;
            VMFiles.close(fd.fd);
        }
    }
}
