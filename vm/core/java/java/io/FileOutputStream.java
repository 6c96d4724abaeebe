package java.io;

/** Writes bytes to a file descriptor through the VM (writeBytes). */
public class FileOutputStream extends OutputStream {
    private final FileDescriptor fd;

    public FileOutputStream(FileDescriptor fdObj) {
        if (fdObj == null) {
            throw new NullPointerException();
        }
        this.fd = fdObj;
    }

    private static native void writeBytes(int fd, byte[] b, int off, int len);

    public void write(int b) throws IOException {
        writeBytes(fd.fd, new byte[] {(byte) b}, 0, 1);
    }

    public void write(byte[] b) throws IOException {
        writeBytes(fd.fd, b, 0, b.length);
    }

    public void write(byte[] b, int off, int len) throws IOException {
        if (off < 0 || len < 0 || off > b.length - len) {
            throw new IndexOutOfBoundsException();
        }
        writeBytes(fd.fd, b, off, len);
    }

    public final FileDescriptor getFD() {
        return fd;
    }

    public void close() throws IOException {
    }
}
