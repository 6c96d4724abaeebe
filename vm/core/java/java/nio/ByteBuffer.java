package java.nio;

/**
 * A byte buffer over a byte array (also for allocateDirect and mapped
 * files, whose contents the VM keeps in the Java heap). Multi-byte values
 * are big-endian unless order() says otherwise.
 */
public abstract class ByteBuffer extends Buffer implements Comparable<ByteBuffer> {
    final byte[] hb;
    final int offset;
    final boolean readOnly;
    final boolean direct;
    boolean bigEndian = true;

    ByteBuffer(byte[] hb, int offset, int capacity, int limit, int position, boolean readOnly, boolean direct) {
        super(capacity, limit, position);
        this.hb = hb;
        this.offset = offset;
        this.readOnly = readOnly;
        this.direct = direct;
    }

    public static ByteBuffer allocate(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity < 0: " + capacity);
        }
        return new HeapByteBuffer(new byte[capacity], 0, capacity, capacity, 0, false, false);
    }

    public static ByteBuffer allocateDirect(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity < 0: " + capacity);
        }
        return new HeapByteBuffer(new byte[capacity], 0, capacity, capacity, 0, false, true);
    }

    public static ByteBuffer wrap(byte[] array) {
        return wrap(array, 0, array.length);
    }

    public static ByteBuffer wrap(byte[] array, int offset, int length) {
        if (offset < 0 || length < 0 || offset > array.length - length) {
            throw new IndexOutOfBoundsException("off=" + offset + ", len=" + length + " out of bounds (size=" + array.length + ")");
        }
        return new HeapByteBuffer(array, 0, array.length, offset + length, offset, false, false);
    }

    /** A buffer of the same kind over hb[offset:offset+capacity]. */
    abstract ByteBuffer view(int offset, int capacity, int limit, int position, boolean readOnly);

    /** Called after bytes [index, index+n) changed (a mapped file writes them through). */
    void stored(int index, int n) {
    }

    public ByteBuffer slice() {
        int rem = Math.max(limit - position, 0);
        ByteBuffer b = view(offset + position, rem, rem, 0, readOnly);
        return b;
    }

    public ByteBuffer duplicate() {
        ByteBuffer b = view(offset, capacity, limit, position, readOnly);
        b.mark = mark;
        b.bigEndian = bigEndian;
        return b;
    }

    public ByteBuffer asReadOnlyBuffer() {
        ByteBuffer b = view(offset, capacity, limit, position, true);
        b.mark = mark;
        b.bigEndian = bigEndian;
        return b;
    }

    private void writable() {
        if (readOnly) {
            throw new ReadOnlyBufferException();
        }
    }

    public byte get() {
        return hb[offset + nextGet(1)];
    }

    public byte get(int index) {
        return hb[offset + check(index, 1)];
    }

    public ByteBuffer get(byte[] dst) {
        return get(dst, 0, dst.length);
    }

    public ByteBuffer get(byte[] dst, int off, int len) {
        if (off < 0 || len < 0 || off > dst.length - len) {
            throw new IndexOutOfBoundsException("off=" + off + ", len=" + len);
        }
        int p = nextGet(len);
        System.arraycopy(hb, offset + p, dst, off, len);
        return this;
    }

    public ByteBuffer put(byte b) {
        writable();
        int p = nextPut(1);
        hb[offset + p] = b;
        stored(p, 1);
        return this;
    }

    public ByteBuffer put(int index, byte b) {
        writable();
        hb[offset + check(index, 1)] = b;
        stored(index, 1);
        return this;
    }

    public final ByteBuffer put(byte[] src) {
        return put(src, 0, src.length);
    }

    public ByteBuffer put(byte[] src, int off, int len) {
        writable();
        if (off < 0 || len < 0 || off > src.length - len) {
            throw new IndexOutOfBoundsException("off=" + off + ", len=" + len);
        }
        int p = nextPut(len);
        System.arraycopy(src, off, hb, offset + p, len);
        stored(p, len);
        return this;
    }

    public ByteBuffer put(ByteBuffer src) {
        if (src == this) {
            throw new IllegalArgumentException("src == this");
        }
        writable();
        int n = src.remaining();
        int p = nextPut(n);
        System.arraycopy(src.hb, src.offset + src.nextGet(n), hb, offset + p, n);
        stored(p, n);
        return this;
    }

    public ByteBuffer compact() {
        writable();
        int n = remaining();
        System.arraycopy(hb, offset + position, hb, offset, n);
        stored(0, n);
        position = n;
        limit = capacity;
        mark = -1;
        return this;
    }

    public final boolean hasArray() {
        return !readOnly;
    }

    public final byte[] array() {
        if (readOnly) {
            throw new ReadOnlyBufferException();
        }
        return hb;
    }

    public final int arrayOffset() {
        if (readOnly) {
            throw new ReadOnlyBufferException();
        }
        return offset;
    }

    public boolean isDirect() {
        return direct;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public final ByteOrder order() {
        return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    public final ByteBuffer order(ByteOrder bo) {
        bigEndian = bo == ByteOrder.BIG_ENDIAN;
        return this;
    }

    // Multi-byte values, assembled in the buffer's order.
    private long load(int index, int n) {
        long v = 0;
        int base = offset + index;
        if (bigEndian) {
            for (int i = 0; i < n; i++) {
                v = (v << 8) | (hb[base + i] & 0xff);
            }
        } else {
            for (int i = n - 1; i >= 0; i--) {
                v = (v << 8) | (hb[base + i] & 0xff);
            }
        }
        return v;
    }

    private ByteBuffer storeValue(int index, int n, long v) {
        int base = offset + index;
        for (int i = 0; i < n; i++) {
            int shift = bigEndian ? 8 * (n - 1 - i) : 8 * i;
            hb[base + i] = (byte) (v >>> shift);
        }
        stored(index, n);
        return this;
    }

    public char getChar() {
        return (char) load(nextGet(2), 2);
    }

    public char getChar(int index) {
        return (char) load(check(index, 2), 2);
    }

    public ByteBuffer putChar(char v) {
        writable();
        return storeValue(nextPut(2), 2, v);
    }

    public ByteBuffer putChar(int index, char v) {
        writable();
        return storeValue(check(index, 2), 2, v);
    }

    public short getShort() {
        return (short) load(nextGet(2), 2);
    }

    public short getShort(int index) {
        return (short) load(check(index, 2), 2);
    }

    public ByteBuffer putShort(short v) {
        writable();
        return storeValue(nextPut(2), 2, v);
    }

    public ByteBuffer putShort(int index, short v) {
        writable();
        return storeValue(check(index, 2), 2, v);
    }

    public int getInt() {
        return (int) load(nextGet(4), 4);
    }

    public int getInt(int index) {
        return (int) load(check(index, 4), 4);
    }

    public ByteBuffer putInt(int v) {
        writable();
        return storeValue(nextPut(4), 4, v);
    }

    public ByteBuffer putInt(int index, int v) {
        writable();
        return storeValue(check(index, 4), 4, v);
    }

    public long getLong() {
        return load(nextGet(8), 8);
    }

    public long getLong(int index) {
        return load(check(index, 8), 8);
    }

    public ByteBuffer putLong(long v) {
        writable();
        return storeValue(nextPut(8), 8, v);
    }

    public ByteBuffer putLong(int index, long v) {
        writable();
        return storeValue(check(index, 8), 8, v);
    }

    public float getFloat() {
        return Float.intBitsToFloat(getInt());
    }

    public float getFloat(int index) {
        return Float.intBitsToFloat(getInt(index));
    }

    public ByteBuffer putFloat(float v) {
        return putInt(Float.floatToRawIntBits(v));
    }

    public ByteBuffer putFloat(int index, float v) {
        return putInt(index, Float.floatToRawIntBits(v));
    }

    public double getDouble() {
        return Double.longBitsToDouble(getLong());
    }

    public double getDouble(int index) {
        return Double.longBitsToDouble(getLong(index));
    }

    public ByteBuffer putDouble(double v) {
        return putLong(Double.doubleToRawLongBits(v));
    }

    public ByteBuffer putDouble(int index, double v) {
        return putLong(index, Double.doubleToRawLongBits(v));
    }

    // Covariant returns, as from Java 9 on.
    public ByteBuffer position(int newPosition) {
        super.position(newPosition);
        return this;
    }

    public ByteBuffer limit(int newLimit) {
        super.limit(newLimit);
        return this;
    }

    public ByteBuffer mark() {
        super.mark();
        return this;
    }

    public ByteBuffer reset() {
        super.reset();
        return this;
    }

    public ByteBuffer clear() {
        super.clear();
        return this;
    }

    public ByteBuffer flip() {
        super.flip();
        return this;
    }

    public ByteBuffer rewind() {
        super.rewind();
        return this;
    }

    public int hashCode() {
        int h = 1;
        for (int i = limit - 1; i >= position; i--) {
            h = 31 * h + hb[offset + i];
        }
        return h;
    }

    public boolean equals(Object o) {
        return o instanceof ByteBuffer && compareTo((ByteBuffer) o) == 0;
    }

    public int compareTo(ByteBuffer that) {
        int n = Math.min(remaining(), that.remaining());
        for (int i = 0; i < n; i++) {
            int c = Byte.compare(hb[offset + position + i], that.hb[that.offset + that.position + i]);
            if (c != 0) {
                return c;
            }
        }
        return remaining() - that.remaining();
    }
}
