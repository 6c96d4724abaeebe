package java.lang;

/** The shared implementation of StringBuilder and StringBuffer. */
abstract class AbstractStringBuilder implements Appendable, CharSequence {
    char[] value;
    int count;

    AbstractStringBuilder(int capacity) {
        value = new char[capacity];
    }

    final char[] getValue() {
        return value;
    }

    public int length() {
        return count;
    }

    public int capacity() {
        return value.length;
    }

    public void ensureCapacity(int minimumCapacity) {
        if (minimumCapacity > value.length) {
            grow(minimumCapacity);
        }
    }

    private void grow(int min) {
        int n = value.length * 2 + 2;
        if (n < min) {
            n = min;
        }
        if (n < 0) {
            n = Integer.MAX_VALUE;
        }
        char[] v = new char[n];
        System.arraycopy(value, 0, v, 0, count);
        value = v;
    }

    public void trimToSize() {
        if (count < value.length) {
            char[] v = new char[count];
            System.arraycopy(value, 0, v, 0, count);
            value = v;
        }
    }

    public void setLength(int newLength) {
        if (newLength < 0) {
            throw new StringIndexOutOfBoundsException(newLength);
        }
        ensureCapacity(newLength);
        for (int i = count; i < newLength; i++) {
            value[i] = '\0';
        }
        count = newLength;
    }

    public char charAt(int index) {
        if (index < 0 || index >= count) {
            throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        }
        return value[index];
    }

    public int codePointAt(int index) {
        if (index < 0 || index >= count) {
            throw new StringIndexOutOfBoundsException(index);
        }
        char c = value[index];
        if (Character.isHighSurrogate(c) && index + 1 < count && Character.isLowSurrogate(value[index + 1])) {
            return Character.toCodePoint(c, value[index + 1]);
        }
        return c;
    }

    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        if (srcBegin < 0 || srcEnd > count || srcBegin > srcEnd) {
            throw new StringIndexOutOfBoundsException("srcBegin " + srcBegin + ", srcEnd " + srcEnd + ", length " + count);
        }
        System.arraycopy(value, srcBegin, dst, dstBegin, srcEnd - srcBegin);
    }

    public void setCharAt(int index, char ch) {
        if (index < 0 || index >= count) {
            throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        }
        value[index] = ch;
    }

    AbstractStringBuilder appendNull() {
        ensureCapacity(count + 4);
        value[count++] = 'n';
        value[count++] = 'u';
        value[count++] = 'l';
        value[count++] = 'l';
        return this;
    }

    public AbstractStringBuilder append(Object obj) {
        return append(String.valueOf(obj));
    }

    public AbstractStringBuilder append(String str) {
        if (str == null) {
            return appendNull();
        }
        int n = str.length();
        ensureCapacity(count + n);
        str.getChars(0, n, value, count);
        count += n;
        return this;
    }

    AbstractStringBuilder append(AbstractStringBuilder asb) {
        if (asb == null) {
            return appendNull();
        }
        int n = asb.length();
        ensureCapacity(count + n);
        asb.getChars(0, n, value, count);
        count += n;
        return this;
    }

    public AbstractStringBuilder append(CharSequence s) {
        if (s == null) {
            return appendNull();
        }
        if (s instanceof String) {
            return append((String) s);
        }
        if (s instanceof AbstractStringBuilder) {
            return append((AbstractStringBuilder) s);
        }
        return append(s, 0, s.length());
    }

    public AbstractStringBuilder append(CharSequence s, int start, int end) {
        if (s == null) {
            s = "null";
        }
        if (start < 0 || start > end || end > s.length()) {
            throw new IndexOutOfBoundsException("start " + start + ", end " + end + ", s.length() " + s.length());
        }
        ensureCapacity(count + end - start);
        for (int i = start; i < end; i++) {
            value[count++] = s.charAt(i);
        }
        return this;
    }

    public AbstractStringBuilder append(char[] str) {
        return append(str, 0, str.length);
    }

    public AbstractStringBuilder append(char[] str, int offset, int len) {
        if (offset < 0 || len < 0 || offset > str.length - len) {
            throw new IndexOutOfBoundsException("offset " + offset + ", count " + len + ", length " + str.length);
        }
        ensureCapacity(count + len);
        System.arraycopy(str, offset, value, count, len);
        count += len;
        return this;
    }

    public AbstractStringBuilder append(boolean b) {
        return append(b ? "true" : "false");
    }

    public AbstractStringBuilder append(char c) {
        ensureCapacity(count + 1);
        value[count++] = c;
        return this;
    }

    public AbstractStringBuilder append(int i) {
        return append(Integer.toString(i));
    }

    public AbstractStringBuilder append(long l) {
        return append(Long.toString(l));
    }

    public AbstractStringBuilder append(float f) {
        return append(Float.toString(f));
    }

    public AbstractStringBuilder append(double d) {
        return append(Double.toString(d));
    }

    public AbstractStringBuilder appendCodePoint(int codePoint) {
        return append(Character.toChars(codePoint));
    }

    public AbstractStringBuilder delete(int start, int end) {
        if (end > count) {
            end = count;
        }
        if (start < 0 || start > end) {
            throw new StringIndexOutOfBoundsException("start " + start + ", end " + end + ", length " + count);
        }
        System.arraycopy(value, end, value, start, count - end);
        count -= end - start;
        return this;
    }

    public AbstractStringBuilder deleteCharAt(int index) {
        if (index < 0 || index >= count) {
            throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        }
        System.arraycopy(value, index + 1, value, index, count - index - 1);
        count--;
        return this;
    }

    public AbstractStringBuilder replace(int start, int end, String str) {
        if (start < 0 || start > count || start > end) {
            throw new StringIndexOutOfBoundsException("start " + start + ", end " + end + ", length " + count);
        }
        if (end > count) {
            end = count;
        }
        int n = str.length();
        int newCount = count + n - (end - start);
        ensureCapacity(newCount);
        System.arraycopy(value, end, value, start + n, count - end);
        str.getChars(0, n, value, start);
        count = newCount;
        return this;
    }

    public String substring(int start) {
        return substring(start, count);
    }

    public CharSequence subSequence(int start, int end) {
        return substring(start, end);
    }

    public String substring(int start, int end) {
        if (start < 0 || end > count || start > end) {
            throw new StringIndexOutOfBoundsException("start " + start + ", end " + end + ", length " + count);
        }
        return new String(value, start, end - start);
    }

    public AbstractStringBuilder insert(int offset, String str) {
        if (offset < 0 || offset > count) {
            throw new StringIndexOutOfBoundsException("offset " + offset + ", length " + count);
        }
        if (str == null) {
            str = "null";
        }
        int n = str.length();
        ensureCapacity(count + n);
        System.arraycopy(value, offset, value, offset + n, count - offset);
        str.getChars(0, n, value, offset);
        count += n;
        return this;
    }

    public AbstractStringBuilder insert(int index, char[] str, int offset, int len) {
        if (offset < 0 || len < 0 || offset > str.length - len) {
            throw new StringIndexOutOfBoundsException("offset " + offset + ", len " + len + ", str.length " + str.length);
        }
        return insert(index, new String(str, offset, len));
    }

    public AbstractStringBuilder insert(int offset, Object obj) {
        return insert(offset, String.valueOf(obj));
    }

    public AbstractStringBuilder insert(int offset, char[] str) {
        return insert(offset, new String(str));
    }

    public AbstractStringBuilder insert(int offset, CharSequence s) {
        return insert(offset, String.valueOf(s));
    }

    public AbstractStringBuilder insert(int offset, boolean b) {
        return insert(offset, String.valueOf(b));
    }

    public AbstractStringBuilder insert(int offset, char c) {
        return insert(offset, String.valueOf(c));
    }

    public AbstractStringBuilder insert(int offset, int i) {
        return insert(offset, String.valueOf(i));
    }

    public AbstractStringBuilder insert(int offset, long l) {
        return insert(offset, String.valueOf(l));
    }

    public AbstractStringBuilder insert(int offset, float f) {
        return insert(offset, String.valueOf(f));
    }

    public AbstractStringBuilder insert(int offset, double d) {
        return insert(offset, String.valueOf(d));
    }

    public int indexOf(String str) {
        return indexOf(str, 0);
    }

    public int indexOf(String str, int fromIndex) {
        return String.indexOf(value, count, str.toCharArray(), fromIndex);
    }

    public int lastIndexOf(String str) {
        return lastIndexOf(str, count);
    }

    public int lastIndexOf(String str, int fromIndex) {
        return String.lastIndexOf(value, count, str.toCharArray(), fromIndex);
    }

    /** Reverses the chars, keeping surrogate pairs in order. */
    public AbstractStringBuilder reverse() {
        boolean surrogates = false;
        for (int i = 0, j = count - 1; i < j; i++, j--) {
            char a = value[i];
            char b = value[j];
            value[i] = b;
            value[j] = a;
            if (Character.isSurrogate(a) || Character.isSurrogate(b)) {
                surrogates = true;
            }
        }
        if (surrogates || (count % 2 == 1 && Character.isSurrogate(value[count / 2]))) {
            for (int i = 0; i < count - 1; i++) {
                if (Character.isLowSurrogate(value[i]) && Character.isHighSurrogate(value[i + 1])) {
                    char t = value[i];
                    value[i] = value[i + 1];
                    value[i + 1] = t;
                    i++;
                }
            }
        }
        return this;
    }

    public abstract String toString();
}
