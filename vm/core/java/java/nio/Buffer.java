package java.nio;

/** A linear, finite run of elements with a position, a limit and a mark. */
public abstract class Buffer {
    final int capacity;
    int limit;
    int position;
    int mark = -1;

    Buffer(int capacity, int limit, int position) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity < 0: " + capacity);
        }
        this.capacity = capacity;
        this.limit = limit;
        this.position = position;
    }

    public final int capacity() {
        return capacity;
    }

    public final int position() {
        return position;
    }

    public Buffer position(int newPosition) {
        if (newPosition < 0 || newPosition > limit) {
            throw new IllegalArgumentException("Bad position " + newPosition + "/" + limit);
        }
        if (mark > newPosition) {
            mark = -1;
        }
        position = newPosition;
        return this;
    }

    public final int limit() {
        return limit;
    }

    public Buffer limit(int newLimit) {
        if (newLimit < 0 || newLimit > capacity) {
            throw new IllegalArgumentException("Bad limit (capacity " + capacity + "): " + newLimit);
        }
        limit = newLimit;
        if (position > newLimit) {
            position = newLimit;
        }
        if (mark > newLimit) {
            mark = -1;
        }
        return this;
    }

    public Buffer mark() {
        mark = position;
        return this;
    }

    public Buffer reset() {
        if (mark < 0) {
            throw new InvalidMarkException();
        }
        position = mark;
        return this;
    }

    public Buffer clear() {
        position = 0;
        limit = capacity;
        mark = -1;
        return this;
    }

    public Buffer flip() {
        limit = position;
        position = 0;
        mark = -1;
        return this;
    }

    public Buffer rewind() {
        position = 0;
        mark = -1;
        return this;
    }

    public final int remaining() {
        return limit - position;
    }

    public final boolean hasRemaining() {
        return position < limit;
    }

    public abstract boolean isReadOnly();

    public abstract boolean hasArray();

    public abstract Object array();

    public abstract int arrayOffset();

    public abstract boolean isDirect();

    // The index of the next relative get or put of n elements.
    final int nextGet(int n) {
        if (limit - position < n) {
            throw new BufferUnderflowException();
        }
        int p = position;
        position += n;
        return p;
    }

    final int nextPut(int n) {
        if (limit - position < n) {
            throw new BufferOverflowException();
        }
        int p = position;
        position += n;
        return p;
    }

    final int check(int index, int n) {
        if (index < 0 || n > limit - index) {
            throw new IndexOutOfBoundsException("index=" + index + " out of bounds (limit=" + limit + ", nb=" + n + ")");
        }
        return index;
    }

    public String toString() {
        return getClass().getName() + "[pos=" + position + " lim=" + limit + " cap=" + capacity + "]";
    }
}
