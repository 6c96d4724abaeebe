package java.io;

/** Thrown when FileDescriptor.sync fails. */
public class SyncFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    public SyncFailedException(String desc) {
        super(desc);
    }
}
