package java.nio.channels;

import java.io.Closeable;
import java.io.IOException;
import java.io.VMFiles;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/** The FileChannel of the VM's file streams, over their descriptor. */
public final class VMFileChannel extends FileChannel {
    private final int fd;
    private final boolean readable, writable;
    private final Closeable owner; // the stream or file, closed with the channel
    private boolean open = true;

    public VMFileChannel(int fd, boolean readable, boolean writable, Closeable owner) {
        this.fd = fd;
        this.readable = readable;
        this.writable = writable;
        this.owner = owner;
    }

    private void checkOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    private void checkRead() throws IOException {
        checkOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
    }

    private void checkWrite() throws IOException {
        checkOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
    }

    public boolean isOpen() {
        return open;
    }

    public void close() throws IOException {
        if (open) {
            open = false;
            owner.close();
        }
    }

    public int read(ByteBuffer dst) throws IOException {
        checkRead();
        byte[] b = new byte[dst.remaining()];
        int n = VMFiles.read(fd, b, 0, b.length);
        if (n > 0) {
            dst.put(b, 0, n);
        }
        return n;
    }

    public int read(ByteBuffer dst, long position) throws IOException {
        checkRead();
        byte[] b = new byte[dst.remaining()];
        int n = VMFiles.pread(fd, b, 0, b.length, position);
        if (n > 0) {
            dst.put(b, 0, n);
        }
        return n == 0 && b.length > 0 ? -1 : n;
    }

    public int write(ByteBuffer src) throws IOException {
        checkWrite();
        byte[] b = new byte[src.remaining()];
        src.get(b);
        VMFiles.write(fd, b, 0, b.length);
        return b.length;
    }

    public int write(ByteBuffer src, long position) throws IOException {
        checkWrite();
        byte[] b = new byte[src.remaining()];
        src.get(b);
        VMFiles.pwrite(fd, b, 0, b.length, position);
        return b.length;
    }

    public long position() throws IOException {
        checkOpen();
        return VMFiles.seek(fd, 0, 1);
    }

    public FileChannel position(long newPosition) throws IOException {
        checkOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("newPosition < 0");
        }
        VMFiles.seek(fd, newPosition, 0);
        return this;
    }

    public long size() throws IOException {
        checkOpen();
        return VMFiles.size(fd);
    }

    public FileChannel truncate(long size) throws IOException {
        checkWrite();
        if (size < 0) {
            throw new IllegalArgumentException("size < 0");
        }
        if (size < VMFiles.size(fd)) {
            VMFiles.truncate(fd, size);
        }
        if (position() > size) {
            position(size);
        }
        return this;
    }

    public void force(boolean metaData) throws IOException {
        checkOpen();
        VMFiles.sync(fd);
    }

    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        checkOpen();
        if (position < 0 || size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("position=" + position + " size=" + size);
        }
        if (mode != MapMode.READ_ONLY && !writable) {
            throw new NonWritableChannelException();
        }
        if (!readable) {
            throw new NonReadableChannelException();
        }
        int writeFd = -1;
        if (mode == MapMode.READ_WRITE) {
            // A mapping outlives its channel, and grows the file to cover it.
            if (VMFiles.size(fd) < position + size) {
                VMFiles.truncate(fd, position + size);
            }
            writeFd = VMFiles.dup(fd);
        }
        return MappedByteBuffer.mapFile(fd, writeFd, position, (int) size, mode == MapMode.READ_ONLY);
    }
}
