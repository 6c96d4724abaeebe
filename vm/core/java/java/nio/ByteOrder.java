package java.nio;

/** A byte order for multi-byte values in a ByteBuffer. */
public final class ByteOrder {
    public static final ByteOrder BIG_ENDIAN = new ByteOrder("BIG_ENDIAN");
    public static final ByteOrder LITTLE_ENDIAN = new ByteOrder("LITTLE_ENDIAN");

    private final String name;

    private ByteOrder(String name) {
        this.name = name;
    }

    /** The VM's memory is little-endian, as on every Android ABI. */
    public static ByteOrder nativeOrder() {
        return LITTLE_ENDIAN;
    }

    public String toString() {
        return name;
    }
}
