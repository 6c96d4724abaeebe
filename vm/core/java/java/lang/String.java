package java.lang;

import java.util.Comparator;
import java.util.Iterator;

/**
 * An immutable sequence of UTF-16 chars. The VM allocates string literals
 * directly, so the only instance fields are value and hash; everything else
 * is plain Java over value.
 */
public final class String implements java.io.Serializable, Comparable<String>, CharSequence {
    private static final long serialVersionUID = 1L;

    private final char[] value;
    private int hash;

    /** Orders strings like compareToIgnoreCase. */
    public static final Comparator<String> CASE_INSENSITIVE_ORDER = new CaseInsensitiveComparator();

    private static final class CaseInsensitiveComparator implements Comparator<String>, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        public int compare(String a, String b) {
            return a.compareToIgnoreCase(b);
        }
    }

    public String() {
        value = new char[0];
    }

    public String(String original) {
        value = original.value;
        hash = original.hash;
    }

    public String(char[] value) {
        this(value, 0, value.length);
    }

    public String(char[] value, int offset, int count) {
        checkRange(offset, count, value.length);
        char[] v = new char[count];
        System.arraycopy(value, offset, v, 0, count);
        this.value = v;
    }

    public String(int[] codePoints, int offset, int count) {
        checkRange(offset, count, codePoints.length);
        int n = 0;
        for (int i = offset; i < offset + count; i++) {
            n += Character.charCount(codePoints[i]);
        }
        char[] v = new char[n];
        int j = 0;
        for (int i = offset; i < offset + count; i++) {
            int cp = codePoints[i];
            if (!Character.isValidCodePoint(cp)) {
                throw new IllegalArgumentException(Integer.toString(cp));
            }
            if (cp < 0x10000) {
                v[j++] = (char) cp;
            } else {
                v[j++] = Character.highSurrogate(cp);
                v[j++] = Character.lowSurrogate(cp);
            }
        }
        this.value = v;
    }

    public String(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    /** Decodes UTF-8; malformed input becomes U+FFFD. */
    public String(byte[] bytes, int offset, int length) {
        checkRange(offset, length, bytes.length);
        this.value = decodeUTF8(bytes, offset, length);
    }

    public String(byte[] bytes, String charsetName) throws java.io.UnsupportedEncodingException {
        this(bytes, 0, bytes.length, charsetName);
    }

    public String(byte[] bytes, int offset, int length, String charsetName) throws java.io.UnsupportedEncodingException {
        checkRange(offset, length, bytes.length);
        this.value = decode(charsetFor(charsetName).name(), bytes, offset, length);
    }

    public String(byte[] bytes, java.nio.charset.Charset charset) {
        this(bytes, 0, bytes.length, charset);
    }

    public String(byte[] bytes, int offset, int length, java.nio.charset.Charset charset) {
        if (charset == null) {
            throw new NullPointerException("charset == null");
        }
        checkRange(offset, length, bytes.length);
        this.value = decode(charset.name(), bytes, offset, length);
    }

    /** Each char is hibyte's low 8 bits over a byte (the pre-charset constructor). */
    @Deprecated
    public String(byte[] ascii, int hibyte) {
        this(ascii, hibyte, 0, ascii.length);
    }

    @Deprecated
    public String(byte[] ascii, int hibyte, int offset, int count) {
        checkRange(offset, count, ascii.length);
        char[] v = new char[count];
        int hi = (hibyte & 0xff) << 8;
        for (int i = 0; i < count; i++) {
            v[i] = (char) (hi | (ascii[offset + i] & 0xff));
        }
        this.value = v;
    }

    // The Charset named name, with the exception the String API declares.
    private static java.nio.charset.Charset charsetFor(String name) throws java.io.UnsupportedEncodingException {
        if (name == null) {
            throw new NullPointerException("charsetName == null");
        }
        try {
            return java.nio.charset.Charset.forName(name);
        } catch (IllegalArgumentException e) {
            throw new java.io.UnsupportedEncodingException(name);
        }
    }

    // Decodes with the charset whose canonical name is cs; malformed input
    // becomes U+FFFD.
    private static char[] decode(String cs, byte[] b, int off, int len) {
        if (cs.equals("UTF-8")) {
            return decodeUTF8(b, off, len);
        }
        if (cs.equals("ISO-8859-1") || cs.equals("US-ASCII")) {
            boolean ascii = cs.equals("US-ASCII");
            char[] v = new char[len];
            for (int i = 0; i < len; i++) {
                int c = b[off + i] & 0xff;
                v[i] = ascii && c >= 0x80 ? '\ufffd' : (char) c;
            }
            return v;
        }
        if (cs.startsWith("UTF-16")) {
            boolean little = cs.equals("UTF-16LE");
            if (cs.equals("UTF-16") && len >= 2) {
                int bom = (b[off] & 0xff) << 8 | (b[off + 1] & 0xff);
                if (bom == 0xfeff || bom == 0xfffe) {
                    little = bom == 0xfffe;
                    off += 2;
                    len -= 2;
                }
            }
            char[] v = new char[len / 2 + len % 2];
            int n = 0;
            for (int i = 0; i + 1 < len; i += 2) {
                int b0 = b[off + i] & 0xff;
                int b1 = b[off + i + 1] & 0xff;
                v[n++] = (char) (little ? b1 << 8 | b0 : b0 << 8 | b1);
            }
            if (len % 2 != 0) {
                v[n++] = '\ufffd';
            }
            // Unpaired surrogates are malformed; as on the JVM, a high
            // surrogate and the unit after it become one U+FFFD.
            int m = 0;
            for (int i = 0; i < n; i++) {
                char c = v[i];
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(v[i + 1])) {
                    v[m++] = c;
                    v[m++] = v[++i];
                } else if (Character.isHighSurrogate(c)) {
                    v[m++] = '\ufffd';
                    i++;
                } else {
                    v[m++] = Character.isSurrogate(c) ? '\ufffd' : c;
                }
            }
            return m == v.length ? v : copy(v, 0, m);
        }
        throw new IllegalArgumentException("unsupported charset " + cs);
    }

    // Encodes with the charset whose canonical name is cs; what it cannot
    // represent becomes '?' (U+FFFD in UTF-16).
    private byte[] encode(String cs) {
        char[] v = value;
        if (cs.equals("UTF-8")) {
            return encodeUTF8(v, 0, v.length);
        }
        if (cs.equals("ISO-8859-1") || cs.equals("US-ASCII")) {
            int limit = cs.equals("US-ASCII") ? 0x7f : 0xff;
            byte[] b = new byte[v.length];
            int n = 0;
            for (int i = 0; i < v.length; i++) {
                char c = v[i];
                if (Character.isHighSurrogate(c) && i + 1 < v.length && Character.isLowSurrogate(v[i + 1])) {
                    i++; // one code point, one replacement
                }
                b[n++] = c <= limit ? (byte) c : (byte) '?';
            }
            if (n == b.length) {
                return b;
            }
            byte[] t = new byte[n];
            System.arraycopy(b, 0, t, 0, n);
            return t;
        }
        if (cs.startsWith("UTF-16")) {
            boolean little = cs.equals("UTF-16LE");
            int bom = cs.equals("UTF-16") && v.length > 0 ? 2 : 0;
            byte[] b = new byte[bom + 2 * v.length];
            if (bom != 0) {
                b[0] = (byte) 0xfe;
                b[1] = (byte) 0xff;
            }
            for (int i = 0; i < v.length; i++) {
                char c = v[i];
                if (Character.isHighSurrogate(c) && i + 1 < v.length && Character.isLowSurrogate(v[i + 1])) {
                    put16(b, bom + 2 * i, c, little);
                    i++;
                    c = v[i];
                } else if (Character.isSurrogate(c)) {
                    c = '\ufffd';
                }
                put16(b, bom + 2 * i, c, little);
            }
            return b;
        }
        throw new IllegalArgumentException("unsupported charset " + cs);
    }

    private static void put16(byte[] b, int at, char c, boolean little) {
        b[at + (little ? 1 : 0)] = (byte) (c >> 8);
        b[at + (little ? 0 : 1)] = (byte) c;
    }

    public String(StringBuilder builder) {
        this(builder.getValue(), 0, builder.length());
    }

    public String(StringBuffer buffer) {
        synchronized (buffer) {
            this.value = copy(buffer.getValue(), 0, buffer.length());
        }
    }

    // Shares v, which the caller must not change afterwards.
    String(char[] v, boolean share) {
        this.value = v;
    }

    private static char[] copy(char[] v, int from, int n) {
        char[] c = new char[n];
        System.arraycopy(v, from, c, 0, n);
        return c;
    }

    private static void checkRange(int offset, int count, int length) {
        if (offset < 0 || count < 0 || offset > length - count) {
            throw new StringIndexOutOfBoundsException("offset " + offset + ", count " + count + ", length " + length);
        }
    }

    private static char[] decodeUTF8(byte[] b, int off, int len) {
        char[] out = new char[len];
        int n = 0;
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                out[n++] = (char) c;
                i++;
                continue;
            }
            int need;
            int cp;
            int min;
            if (c >= 0xc2 && c <= 0xdf) {
                need = 1;
                cp = c & 0x1f;
                min = 0x80;
            } else if (c >= 0xe0 && c <= 0xef) {
                need = 2;
                cp = c & 0x0f;
                min = 0x800;
            } else if (c >= 0xf0 && c <= 0xf4) {
                need = 3;
                cp = c & 0x07;
                min = 0x10000;
            } else {
                out[n++] = '\ufffd';
                i++;
                continue;
            }
            int j = i + 1;
            boolean ok = true;
            for (int k = 0; k < need; k++, j++) {
                if (j >= end || (b[j] & 0xc0) != 0x80) {
                    ok = false;
                    break;
                }
                cp = (cp << 6) | (b[j] & 0x3f);
            }
            if (!ok || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                // Skip the lead byte and any continuation bytes read so far.
                out[n++] = '\ufffd';
                i = ok ? i + 1 : j;
                continue;
            }
            if (cp < 0x10000) {
                out[n++] = (char) cp;
            } else {
                out[n++] = Character.highSurrogate(cp);
                out[n++] = Character.lowSurrogate(cp);
            }
            i = j;
        }
        return n == out.length ? out : copy(out, 0, n);
    }

    public int length() {
        return value.length;
    }

    public boolean isEmpty() {
        return value.length == 0;
    }

    public char charAt(int index) {
        if (index < 0 || index >= value.length) {
            throw new StringIndexOutOfBoundsException(index);
        }
        return value[index];
    }

    public int codePointAt(int index) {
        if (index < 0 || index >= value.length) {
            throw new StringIndexOutOfBoundsException(index);
        }
        return Character.codePointAt(value, index);
    }

    public int codePointCount(int begin, int end) {
        if (begin < 0 || end > value.length || begin > end) {
            throw new IndexOutOfBoundsException();
        }
        int n = 0;
        for (int i = begin; i < end; i++) {
            n++;
            if (Character.isHighSurrogate(value[i]) && i + 1 < end && Character.isLowSurrogate(value[i + 1])) {
                i++;
            }
        }
        return n;
    }

    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        if (srcBegin < 0 || srcEnd > value.length || srcBegin > srcEnd) {
            throw new StringIndexOutOfBoundsException("srcBegin " + srcBegin + ", srcEnd " + srcEnd + ", length " + value.length);
        }
        System.arraycopy(value, srcBegin, dst, dstBegin, srcEnd - srcBegin);
    }

    /** Encodes as UTF-8; unpaired surrogates become '?'. */
    public byte[] getBytes() {
        return encodeUTF8(value, 0, value.length);
    }

    public byte[] getBytes(String charsetName) throws java.io.UnsupportedEncodingException {
        return encode(charsetFor(charsetName).name());
    }

    public byte[] getBytes(java.nio.charset.Charset charset) {
        if (charset == null) {
            throw new NullPointerException("charset == null");
        }
        return encode(charset.name());
    }

    /** Copies the low byte of each char of [srcBegin, srcEnd) to dst. */
    @Deprecated
    public void getBytes(int srcBegin, int srcEnd, byte[] dst, int dstBegin) {
        if (srcBegin < 0 || srcEnd > value.length || srcBegin > srcEnd) {
            throw new StringIndexOutOfBoundsException("srcBegin " + srcBegin + ", srcEnd " + srcEnd + ", length " + value.length);
        }
        if (dstBegin < 0 || dstBegin > dst.length - (srcEnd - srcBegin)) {
            throw new ArrayIndexOutOfBoundsException("dstBegin " + dstBegin);
        }
        for (int i = srcBegin; i < srcEnd; i++) {
            dst[dstBegin++] = (byte) value[i];
        }
    }

    static byte[] encodeUTF8(char[] v, int off, int len) {
        int n = 0;
        int end = off + len;
        for (int i = off; i < end; i++) {
            char c = v[i];
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(v[i + 1])) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                n++;
            } else {
                n += 3;
            }
        }
        byte[] b = new byte[n];
        int j = 0;
        for (int i = off; i < end; i++) {
            char c = v[i];
            if (c < 0x80) {
                b[j++] = (byte) c;
            } else if (c < 0x800) {
                b[j++] = (byte) (0xc0 | (c >> 6));
                b[j++] = (byte) (0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(v[i + 1])) {
                int cp = Character.toCodePoint(c, v[i + 1]);
                i++;
                b[j++] = (byte) (0xf0 | (cp >> 18));
                b[j++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                b[j++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                b[j++] = (byte) (0x80 | (cp & 0x3f));
            } else if (Character.isSurrogate(c)) {
                b[j++] = (byte) '?';
            } else {
                b[j++] = (byte) (0xe0 | (c >> 12));
                b[j++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                b[j++] = (byte) (0x80 | (c & 0x3f));
            }
        }
        return b;
    }

    public boolean equals(Object anObject) {
        if (this == anObject) {
            return true;
        }
        if (!(anObject instanceof String)) {
            return false;
        }
        char[] a = value;
        char[] b = ((String) anObject).value;
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public boolean contentEquals(CharSequence cs) {
        if (cs.length() != value.length) {
            return false;
        }
        for (int i = 0; i < value.length; i++) {
            if (value[i] != cs.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public boolean contentEquals(StringBuffer sb) {
        synchronized (sb) {
            return contentEquals((CharSequence) sb);
        }
    }

    public boolean equalsIgnoreCase(String other) {
        return other != null && other.value.length == value.length && regionMatches(true, 0, other, 0, value.length);
    }

    private static boolean sameIgnoringCase(char a, char b) {
        if (a == b) {
            return true;
        }
        char ua = Character.toUpperCase(a);
        char ub = Character.toUpperCase(b);
        return ua == ub || Character.toLowerCase(ua) == Character.toLowerCase(ub);
    }

    public int compareTo(String other) {
        char[] a = value;
        char[] b = other.value;
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return a[i] - b[i];
            }
        }
        return a.length - b.length;
    }

    public int compareToIgnoreCase(String other) {
        char[] a = value;
        char[] b = other.value;
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            char x = a[i];
            char y = b[i];
            if (x != y) {
                x = Character.toUpperCase(x);
                y = Character.toUpperCase(y);
                if (x != y) {
                    x = Character.toLowerCase(x);
                    y = Character.toLowerCase(y);
                    if (x != y) {
                        return x - y;
                    }
                }
            }
        }
        return a.length - b.length;
    }

    public boolean regionMatches(int toffset, String other, int ooffset, int len) {
        return regionMatches(false, toffset, other, ooffset, len);
    }

    public boolean regionMatches(boolean ignoreCase, int toffset, String other, int ooffset, int len) {
        if (ooffset < 0 || toffset < 0 || toffset > (long) value.length - len || ooffset > (long) other.value.length - len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            char a = value[toffset + i];
            char b = other.value[ooffset + i];
            if (a != b && (!ignoreCase || !sameIgnoringCase(a, b))) {
                return false;
            }
        }
        return true;
    }

    public boolean startsWith(String prefix, int toffset) {
        if (toffset < 0 || toffset > value.length - prefix.value.length) {
            return false;
        }
        for (int i = 0; i < prefix.value.length; i++) {
            if (value[toffset + i] != prefix.value[i]) {
                return false;
            }
        }
        return true;
    }

    public boolean startsWith(String prefix) {
        return startsWith(prefix, 0);
    }

    public boolean endsWith(String suffix) {
        return startsWith(suffix, value.length - suffix.value.length);
    }

    public int hashCode() {
        int h = hash;
        if (h == 0 && value.length > 0) {
            for (int i = 0; i < value.length; i++) {
                h = 31 * h + value[i];
            }
            hash = h;
        }
        return h;
    }

    public int indexOf(int ch) {
        return indexOf(ch, 0);
    }

    public int indexOf(int ch, int fromIndex) {
        if (fromIndex < 0) {
            fromIndex = 0;
        }
        if (ch < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
            for (int i = fromIndex; i < value.length; i++) {
                if (value[i] == ch) {
                    return i;
                }
            }
            return -1;
        }
        if (!Character.isValidCodePoint(ch)) {
            return -1;
        }
        char hi = Character.highSurrogate(ch);
        char lo = Character.lowSurrogate(ch);
        for (int i = fromIndex; i < value.length - 1; i++) {
            if (value[i] == hi && value[i + 1] == lo) {
                return i;
            }
        }
        return -1;
    }

    public int lastIndexOf(int ch) {
        return lastIndexOf(ch, value.length - 1);
    }

    public int lastIndexOf(int ch, int fromIndex) {
        if (fromIndex >= value.length) {
            fromIndex = value.length - 1;
        }
        if (ch < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
            for (int i = fromIndex; i >= 0; i--) {
                if (value[i] == ch) {
                    return i;
                }
            }
            return -1;
        }
        if (!Character.isValidCodePoint(ch)) {
            return -1;
        }
        char hi = Character.highSurrogate(ch);
        char lo = Character.lowSurrogate(ch);
        if (fromIndex >= value.length - 1) {
            fromIndex = value.length - 2;
        }
        for (int i = fromIndex; i >= 0; i--) {
            if (value[i] == hi && value[i + 1] == lo) {
                return i;
            }
        }
        return -1;
    }

    public int indexOf(String str) {
        return indexOf(str, 0);
    }

    public int indexOf(String str, int fromIndex) {
        return indexOf(value, value.length, str.value, fromIndex);
    }

    // Used by the string builders too: the first occurrence of t in s[0:n) at or after from.
    static int indexOf(char[] s, int n, char[] t, int from) {
        if (from < 0) {
            from = 0;
        }
        if (from > n) {
            return t.length == 0 ? n : -1;
        }
        int last = n - t.length;
        outer:
        for (int i = from; i <= last; i++) {
            for (int j = 0; j < t.length; j++) {
                if (s[i + j] != t[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    public int lastIndexOf(String str) {
        return lastIndexOf(str, value.length);
    }

    public int lastIndexOf(String str, int fromIndex) {
        return lastIndexOf(value, value.length, str.value, fromIndex);
    }

    static int lastIndexOf(char[] s, int n, char[] t, int from) {
        int start = Math.min(from, n - t.length);
        outer:
        for (int i = start; i >= 0; i--) {
            for (int j = 0; j < t.length; j++) {
                if (s[i + j] != t[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    public String substring(int beginIndex) {
        return substring(beginIndex, value.length);
    }

    public String substring(int beginIndex, int endIndex) {
        if (beginIndex < 0) {
            throw new StringIndexOutOfBoundsException(beginIndex);
        }
        if (endIndex > value.length) {
            throw new StringIndexOutOfBoundsException(endIndex);
        }
        if (beginIndex > endIndex) {
            throw new StringIndexOutOfBoundsException(endIndex - beginIndex);
        }
        if (beginIndex == 0 && endIndex == value.length) {
            return this;
        }
        return new String(copy(value, beginIndex, endIndex - beginIndex), true);
    }

    public CharSequence subSequence(int beginIndex, int endIndex) {
        return substring(beginIndex, endIndex);
    }

    public String concat(String str) {
        if (str.value.length == 0) {
            return this;
        }
        char[] v = new char[value.length + str.value.length];
        System.arraycopy(value, 0, v, 0, value.length);
        System.arraycopy(str.value, 0, v, value.length, str.value.length);
        return new String(v, true);
    }

    public String replace(char oldChar, char newChar) {
        if (oldChar == newChar || indexOf(oldChar) < 0) {
            return this;
        }
        char[] v = value.clone();
        for (int i = 0; i < v.length; i++) {
            if (v[i] == oldChar) {
                v[i] = newChar;
            }
        }
        return new String(v, true);
    }

    public String replace(CharSequence target, CharSequence replacement) {
        String t = target.toString();
        String r = replacement.toString();
        StringBuilder sb = new StringBuilder();
        if (t.isEmpty()) {
            // An empty target matches before every char and at the end.
            for (int i = 0; i < value.length; i++) {
                sb.append(r).append(value[i]);
            }
            return sb.append(r).toString();
        }
        int from = 0;
        int i = indexOf(t, 0);
        if (i < 0) {
            return this;
        }
        while (i >= 0) {
            sb.append(value, from, i - from).append(r);
            from = i + t.length();
            i = indexOf(t, from);
        }
        sb.append(value, from, value.length - from);
        return sb.toString();
    }

    public boolean contains(CharSequence s) {
        return indexOf(s.toString()) >= 0;
    }

    public String toLowerCase() {
        char[] v = null;
        for (int i = 0; i < value.length; i++) {
            char c = Character.toLowerCase(value[i]);
            if (c != value[i]) {
                if (v == null) {
                    v = value.clone();
                }
                v[i] = c;
            }
        }
        return v == null ? this : new String(v, true);
    }

    /** Like toLowerCase(): case mapping does not depend on the locale here. */
    public String toLowerCase(java.util.Locale locale) {
        return toLowerCase();
    }

    /** Like toUpperCase(): case mapping does not depend on the locale here. */
    public String toUpperCase(java.util.Locale locale) {
        return toUpperCase();
    }

    public String toUpperCase() {
        char[] v = null;
        for (int i = 0; i < value.length; i++) {
            char c = Character.toUpperCase(value[i]);
            if (c != value[i]) {
                if (v == null) {
                    v = value.clone();
                }
                v[i] = c;
            }
        }
        return v == null ? this : new String(v, true);
    }

    public String trim() {
        int b = 0;
        int e = value.length;
        while (b < e && value[b] <= ' ') {
            b++;
        }
        while (e > b && value[e - 1] <= ' ') {
            e--;
        }
        return substring(b, e);
    }

    public String strip() {
        int b = 0;
        int e = value.length;
        while (b < e && Character.isWhitespace(value[b])) {
            b++;
        }
        while (e > b && Character.isWhitespace(value[e - 1])) {
            e--;
        }
        return substring(b, e);
    }

    public boolean isBlank() {
        for (int i = 0; i < value.length; i++) {
            if (!Character.isWhitespace(value[i])) {
                return false;
            }
        }
        return true;
    }

    public String repeat(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count is negative: " + count);
        }
        char[] v = new char[value.length * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(value, 0, v, i * value.length, value.length);
        }
        return new String(v, true);
    }

    public String toString() {
        return this;
    }

    public char[] toCharArray() {
        return value.clone();
    }

    public native String intern();

    /** Splits around matches of regex (see java.util.regex.Pattern for the syntax supported). */
    public String[] split(String regex) {
        return split(regex, 0);
    }

    public String[] split(String regex, int limit) {
        return java.util.regex.Pattern.compile(regex).split(this, limit);
    }

    public boolean matches(String regex) {
        return java.util.regex.Pattern.matches(regex, this);
    }

    public String replaceAll(String regex, String replacement) {
        return java.util.regex.Pattern.compile(regex).matcher(this).replaceAll(replacement);
    }

    public String replaceFirst(String regex, String replacement) {
        return java.util.regex.Pattern.compile(regex).matcher(this).replaceFirst(replacement);
    }

    public static String join(CharSequence delimiter, CharSequence... elements) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < elements.length; i++) {
            if (i > 0) {
                sb.append(delimiter);
            }
            sb.append(elements[i]);
        }
        return sb.toString();
    }

    public static String join(CharSequence delimiter, Iterable<? extends CharSequence> elements) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Iterator<? extends CharSequence> it = elements.iterator(); it.hasNext();) {
            if (!first) {
                sb.append(delimiter);
            }
            first = false;
            sb.append(it.next());
        }
        return sb.toString();
    }

    /** Formats like java.util.Formatter (see there for what is supported). */
    public static String format(String format, Object... args) {
        return new java.util.Formatter().format(format, args).toString();
    }

    /** Formats like format(String, Object...): all locales format alike here. */
    public static String format(java.util.Locale l, String format, Object... args) {
        return new java.util.Formatter(l).format(format, args).toString();
    }

    public static String valueOf(Object obj) {
        return obj == null ? "null" : obj.toString();
    }

    public static String valueOf(char[] data) {
        return new String(data);
    }

    public static String valueOf(char[] data, int offset, int count) {
        return new String(data, offset, count);
    }

    public static String copyValueOf(char[] data) {
        return new String(data);
    }

    public static String copyValueOf(char[] data, int offset, int count) {
        return new String(data, offset, count);
    }

    public static String valueOf(boolean b) {
        return b ? "true" : "false";
    }

    public static String valueOf(char c) {
        return new String(new char[] {c}, true);
    }

    public static String valueOf(int i) {
        return Integer.toString(i);
    }

    public static String valueOf(long l) {
        return Long.toString(l);
    }

    public static String valueOf(float f) {
        return Float.toString(f);
    }

    public static String valueOf(double d) {
        return Double.toString(d);
    }
}
