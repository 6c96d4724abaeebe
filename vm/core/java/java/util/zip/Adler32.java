package java.util.zip;

/** Adler-32 (RFC 1950): two sums modulo 65521. */
public class Adler32 implements Checksum {
    private static final int MOD = 65521;
    // Bytes that can be summed before the sums may overflow an int.
    private static final int NMAX = 5552;

    private int a = 1;
    private int b;

    public void update(int x) {
        a = (a + (x & 0xff)) % MOD;
        b = (b + a) % MOD;
    }

    public void update(byte[] buf, int off, int len) {
        if (buf == null) {
            throw new NullPointerException();
        }
        if (off < 0 || len < 0 || off > buf.length - len) {
            throw new ArrayIndexOutOfBoundsException();
        }
        while (len > 0) {
            int n = len < NMAX ? len : NMAX;
            len -= n;
            while (n-- > 0) {
                a += buf[off++] & 0xff;
                b += a;
            }
            a %= MOD;
            b %= MOD;
        }
    }

    public void update(byte[] buf) {
        update(buf, 0, buf.length);
    }

    public long getValue() {
        return ((long) b << 16) | a;
    }

    public void reset() {
        a = 1;
        b = 0;
    }

    /** Adds the buffer's remaining bytes and moves its position to its limit. */
    public void update(java.nio.ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.get(b);
        update(b, 0, b.length);
    }
}
