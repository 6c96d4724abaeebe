package java.nio;

/** The ByteBuffer of allocate, allocateDirect and wrap. */
final class HeapByteBuffer extends ByteBuffer {
    HeapByteBuffer(byte[] hb, int offset, int capacity, int limit, int position, boolean readOnly, boolean direct) {
        super(hb, offset, capacity, limit, position, readOnly, direct);
    }

    ByteBuffer view(int offset, int capacity, int limit, int position, boolean readOnly) {
        return new HeapByteBuffer(hb, offset, capacity, limit, position, readOnly, direct);
    }
}
