package java.io;

/**
 * The VM's file system calls (vm/runtime/files.go), shared by File, the
 * file streams, RandomAccessFile and FileChannel. Descriptors are the VM's
 * (FileDescriptor.fd); paths are passed as given, relative ones resolved
 * against the process's working directory (user.dir).
 */
public final class VMFiles {
    private VMFiles() {
    }

    /** 0: missing, 1: regular file, 2: directory, 3: something else. */
    static native int stat(String path);

    static native long length(String path);

    static native long lastModified(String path);

    /** mode is access(2)'s: 4 read, 2 write, 1 execute. */
    static native boolean access(String path, int mode);

    static native boolean delete(String path);

    static native void deleteOnExit(String path);

    static native boolean mkdir(String path);

    static native boolean rename(String from, String to);

    /** Creates path if it does not exist (O_EXCL); false if it does. */
    static native boolean createNew(String path) throws IOException;

    /** The names in a directory, sorted, or null if it cannot be read. */
    static native String[] list(String path);

    static native String canonicalize(String path);

    /** mode: 0 read, 1 write (truncating), 2 append, 3 read-write. */
    public static native int open(String path, int mode) throws FileNotFoundException;

    public static native void close(int fd);

    /** The number of bytes read, or -1 at the end of the file. */
    public static native int read(int fd, byte[] b, int off, int len) throws IOException;

    public static native void write(int fd, byte[] b, int off, int len) throws IOException;

    public static native int pread(int fd, byte[] b, int off, int len, long pos) throws IOException;

    public static native void pwrite(int fd, byte[] b, int off, int len, long pos) throws IOException;

    /** whence as lseek(2)'s: 0 set, 1 current, 2 end; returns the new offset. */
    public static native long seek(int fd, long offset, int whence) throws IOException;

    public static native long size(int fd) throws IOException;

    public static native void truncate(int fd, long length) throws IOException;

    public static native void sync(int fd) throws IOException;

    /** A second descriptor for fd's file, open until the VM exits unless closed. */
    public static native int dup(int fd) throws IOException;
}
