package java.nio;

import java.io.IOException;
import java.io.VMFiles;

/**
 * A region of a file as a ByteBuffer (FileChannel.map). The VM keeps the
 * contents in the Java heap: a READ_WRITE mapping writes every store
 * through to the file at once (so the file always holds what a shared
 * mapping would show), a PRIVATE one never writes.
 */
public abstract class MappedByteBuffer extends ByteBuffer {
    final int fd; // -1: private or read-only
    final long filePos; // file offset of hb[0]

    MappedByteBuffer(byte[] hb, int offset, int capacity, int limit, int position, boolean readOnly, int fd, long filePos) {
        super(hb, offset, capacity, limit, position, readOnly, true);
        this.fd = fd;
        this.filePos = filePos;
    }

    /** Maps size bytes of the file at position; fd < 0 makes a copy-on-write or read-only mapping. */
    public static MappedByteBuffer mapFile(int readFd, int writeFd, long position, int size, boolean readOnly) throws IOException {
        byte[] data = new byte[size];
        int done = 0;
        while (done < size) {
            int n = VMFiles.pread(readFd, data, done, size - done, position + done);
            if (n <= 0) {
                break; // past the end of the file: zeros, as in a mapping
            }
            done += n;
        }
        return new FileMapping(data, 0, size, size, 0, readOnly, writeFd, position);
    }

    void stored(int index, int n) {
        if (fd >= 0 && n > 0) {
            try {
                VMFiles.pwrite(fd, hb, offset + index, n, filePos + offset + index);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    public final boolean isLoaded() {
        return true;
    }

    public final MappedByteBuffer load() {
        return this;
    }

    public final MappedByteBuffer force() {
        return this;
    }

    private static final class FileMapping extends MappedByteBuffer {
        FileMapping(byte[] hb, int offset, int capacity, int limit, int position, boolean readOnly, int fd, long filePos) {
            super(hb, offset, capacity, limit, position, readOnly, fd, filePos);
        }

        ByteBuffer view(int offset, int capacity, int limit, int position, boolean readOnly) {
            return new FileMapping(hb, offset, capacity, limit, position, readOnly, fd, filePos);
        }
    }
}
