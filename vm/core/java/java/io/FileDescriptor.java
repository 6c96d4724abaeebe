package java.io;

/** An open file of the VM: the standard streams (0-2) or a file opened by a stream. */
public final class FileDescriptor {
    public static final FileDescriptor in = new FileDescriptor(0);
    public static final FileDescriptor out = new FileDescriptor(1);
    public static final FileDescriptor err = new FileDescriptor(2);

    // The VM's descriptor number, passed to FileOutputStream.writeBytes.
    int fd;

    public FileDescriptor() {
        fd = -1;
    }

    FileDescriptor(int fd) {
        this.fd = fd;
    }

    public boolean valid() {
        return fd >= 0;
    }

    public void sync() throws SyncFailedException {
        if (fd > 2) {
            try {
                VMFiles.sync(fd);
            } catch (IOException e) {
                throw new SyncFailedException(e.getMessage());
            }
        }
    }
}
