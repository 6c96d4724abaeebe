package java.util.zip;

/** The CRC-32 of zip and PNG (reflected polynomial 0xEDB88320). */
public class CRC32 implements Checksum {
    private static final int[] TABLE = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
            }
            TABLE[n] = c;
        }
    }

    private int crc; // the running value, not inverted

    public void update(int b) {
        int c = ~crc;
        c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
        crc = ~c;
    }

    public void update(byte[] b, int off, int len) {
        if (b == null) {
            throw new NullPointerException();
        }
        if (off < 0 || len < 0 || off > b.length - len) {
            throw new ArrayIndexOutOfBoundsException();
        }
        int c = ~crc;
        for (int i = off; i < off + len; i++) {
            c = TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        }
        crc = ~c;
    }

    public void update(byte[] b) {
        update(b, 0, b.length);
    }

    public long getValue() {
        return crc & 0xffffffffL;
    }

    public void reset() {
        crc = 0;
    }

    /** Adds the buffer's remaining bytes and moves its position to its limit. */
    public void update(java.nio.ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.get(b);
        update(b, 0, b.length);
    }
}
