package java.lang;

/**
 * The boxed char, and char classification. Classification is exact for
 * Latin-1 and approximate beyond (common alphabets and CJK); there are no
 * Unicode tables.
 */
public final class Character implements java.io.Serializable, Comparable<Character> {
    private static final long serialVersionUID = 1L;

    public static final int MIN_RADIX = 2;
    public static final int MAX_RADIX = 36;
    public static final char MIN_VALUE = '\u0000';
    public static final char MAX_VALUE = '\uffff';
    public static final char MIN_HIGH_SURROGATE = '\ud800';
    public static final char MAX_HIGH_SURROGATE = '\udbff';
    public static final char MIN_LOW_SURROGATE = '\udc00';
    public static final char MAX_LOW_SURROGATE = '\udfff';
    public static final char MIN_SURROGATE = MIN_HIGH_SURROGATE;
    public static final char MAX_SURROGATE = MAX_LOW_SURROGATE;
    public static final int MIN_SUPPLEMENTARY_CODE_POINT = 0x010000;
    public static final int MIN_CODE_POINT = 0x000000;
    public static final int MAX_CODE_POINT = 0x10ffff;
    public static final int SIZE = 16;
    public static final int BYTES = 2;
    @SuppressWarnings("unchecked")
    public static final Class<Character> TYPE = (Class<Character>) char[].class.getComponentType();

    private static final Character[] CACHE = new Character[128];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new Character((char) i);
        }
    }

    private final char value;

    public Character(char value) {
        this.value = value;
    }

    public static Character valueOf(char c) {
        if (c < 128) {
            return CACHE[c];
        }
        return new Character(c);
    }

    public char charValue() {
        return value;
    }

    public int hashCode() {
        return value;
    }

    public static int hashCode(char c) {
        return c;
    }

    public boolean equals(Object obj) {
        return obj instanceof Character && ((Character) obj).value == value;
    }

    public String toString() {
        return String.valueOf(value);
    }

    public static String toString(char c) {
        return String.valueOf(c);
    }

    public int compareTo(Character other) {
        return compare(value, other.value);
    }

    public static int compare(char x, char y) {
        return x - y;
    }

    public static char reverseBytes(char ch) {
        return (char) (((ch & 0xff00) >> 8) | (ch << 8));
    }

    public static boolean isValidCodePoint(int codePoint) {
        return codePoint >= MIN_CODE_POINT && codePoint <= MAX_CODE_POINT;
    }

    public static boolean isBmpCodePoint(int codePoint) {
        return codePoint >>> 16 == 0;
    }

    public static boolean isSupplementaryCodePoint(int codePoint) {
        return codePoint >= MIN_SUPPLEMENTARY_CODE_POINT && codePoint <= MAX_CODE_POINT;
    }

    public static boolean isHighSurrogate(char ch) {
        return ch >= MIN_HIGH_SURROGATE && ch <= MAX_HIGH_SURROGATE;
    }

    public static boolean isLowSurrogate(char ch) {
        return ch >= MIN_LOW_SURROGATE && ch <= MAX_LOW_SURROGATE;
    }

    public static boolean isSurrogate(char ch) {
        return ch >= MIN_SURROGATE && ch <= MAX_SURROGATE;
    }

    public static boolean isSurrogatePair(char high, char low) {
        return isHighSurrogate(high) && isLowSurrogate(low);
    }

    public static int charCount(int codePoint) {
        return codePoint >= MIN_SUPPLEMENTARY_CODE_POINT ? 2 : 1;
    }

    public static int toCodePoint(char high, char low) {
        return ((high - MIN_HIGH_SURROGATE) << 10) + (low - MIN_LOW_SURROGATE) + MIN_SUPPLEMENTARY_CODE_POINT;
    }

    public static char highSurrogate(int codePoint) {
        return (char) (((codePoint - MIN_SUPPLEMENTARY_CODE_POINT) >>> 10) + MIN_HIGH_SURROGATE);
    }

    public static char lowSurrogate(int codePoint) {
        return (char) (((codePoint - MIN_SUPPLEMENTARY_CODE_POINT) & 0x3ff) + MIN_LOW_SURROGATE);
    }

    public static int codePointAt(char[] a, int index) {
        char c = a[index];
        if (isHighSurrogate(c) && index + 1 < a.length && isLowSurrogate(a[index + 1])) {
            return toCodePoint(c, a[index + 1]);
        }
        return c;
    }

    public static int codePointAt(CharSequence seq, int index) {
        char c = seq.charAt(index);
        if (isHighSurrogate(c) && index + 1 < seq.length() && isLowSurrogate(seq.charAt(index + 1))) {
            return toCodePoint(c, seq.charAt(index + 1));
        }
        return c;
    }

    public static char[] toChars(int codePoint) {
        if (!isValidCodePoint(codePoint)) {
            throw new IllegalArgumentException();
        }
        if (codePoint < MIN_SUPPLEMENTARY_CODE_POINT) {
            return new char[] {(char) codePoint};
        }
        return new char[] {highSurrogate(codePoint), lowSurrogate(codePoint)};
    }

    public static String toString(int codePoint) {
        return new String(toChars(codePoint));
    }

    public static boolean isDigit(char ch) {
        return isDigit((int) ch);
    }

    public static boolean isDigit(int cp) {
        if (cp <= '9') {
            return cp >= '0';
        }
        // A few common decimal digit blocks beyond ASCII.
        return (cp >= 0x0660 && cp <= 0x0669) || (cp >= 0x06f0 && cp <= 0x06f9) || (cp >= 0x0966 && cp <= 0x096f)
                || (cp >= 0xff10 && cp <= 0xff19);
    }

    public static boolean isLetter(char ch) {
        return isLetter((int) ch);
    }

    public static boolean isLetter(int cp) {
        if (cp < 0x80) {
            return (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z');
        }
        if (cp < 0x100) {
            return cp == 0xaa || cp == 0xb5 || cp == 0xba || (cp >= 0xc0 && cp != 0xd7 && cp != 0xf7);
        }
        // Approximation: Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic
        // letters, kana and CJK ideographs, Hangul.
        return (cp < 0x2b0) || (cp >= 0x370 && cp <= 0x3ff && cp != 0x37e && cp != 0x387 && cp != 0x375)
                || (cp >= 0x400 && cp <= 0x481) || (cp >= 0x48a && cp <= 0x52f) || (cp >= 0x531 && cp <= 0x587)
                || (cp >= 0x5d0 && cp <= 0x5ea) || (cp >= 0x620 && cp <= 0x64a) || (cp >= 0x1e00 && cp <= 0x1fff)
                || (cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30a1 && cp <= 0x30fa) || (cp >= 0x3400 && cp <= 0x4dbf)
                || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xff21 && cp <= 0xff3a)
                || (cp >= 0xff41 && cp <= 0xff5a) || (cp >= 0x20000 && cp <= 0x2fa1f);
    }

    public static boolean isLetterOrDigit(char ch) {
        return isLetter(ch) || isDigit(ch);
    }

    public static boolean isLetterOrDigit(int cp) {
        return isLetter(cp) || isDigit(cp);
    }

    public static boolean isAlphabetic(int cp) {
        return isLetter(cp);
    }

    public static boolean isJavaIdentifierStart(char ch) {
        return isJavaIdentifierStart((int) ch);
    }

    public static boolean isJavaIdentifierStart(int cp) {
        return isLetter(cp) || cp == '$' || cp == '_' || (cp >= 0xa2 && cp <= 0xa5);
    }

    public static boolean isJavaIdentifierPart(char ch) {
        return isJavaIdentifierPart((int) ch);
    }

    public static boolean isJavaIdentifierPart(int cp) {
        return isJavaIdentifierStart(cp) || isDigit(cp) || (cp >= 0 && cp <= 8) || (cp >= 0xe && cp <= 0x1b)
                || (cp >= 0x7f && cp <= 0x9f) || cp == 0xad;
    }

    public static boolean isSpaceChar(char ch) {
        return isSpaceChar((int) ch);
    }

    public static boolean isSpaceChar(int cp) {
        return cp == ' ' || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029
                || cp == 0x202f || cp == 0x205f || cp == 0x3000;
    }

    public static boolean isWhitespace(char ch) {
        return isWhitespace((int) ch);
    }

    public static boolean isWhitespace(int cp) {
        if ((cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f)) {
            return true;
        }
        // Space separators except the non-breaking ones.
        return isSpaceChar(cp) && cp != 0xa0 && cp != 0x2007 && cp != 0x202f;
    }

    public static boolean isISOControl(char ch) {
        return isISOControl((int) ch);
    }

    public static boolean isISOControl(int cp) {
        return (cp >= 0 && cp <= 0x1f) || (cp >= 0x7f && cp <= 0x9f);
    }

    public static boolean isUpperCase(char ch) {
        return isUpperCase((int) ch);
    }

    public static boolean isUpperCase(int cp) {
        return toLowerCase(cp) != cp || (cp >= 0x2160 && cp <= 0x216f) || (cp >= 0x24b6 && cp <= 0x24cf);
    }

    public static boolean isLowerCase(char ch) {
        return isLowerCase((int) ch);
    }

    public static boolean isLowerCase(int cp) {
        return toUpperCase(cp) != cp || cp == 0xaa || cp == 0xba || cp == 0xdf || cp == 0x138 || cp == 0x149
                || (cp >= 0x2170 && cp <= 0x217f) || (cp >= 0x24d0 && cp <= 0x24e9);
    }

    public static char toUpperCase(char ch) {
        return (char) toUpperCase((int) ch);
    }

    public static int toUpperCase(int cp) {
        if (cp < 0x80) {
            return cp >= 'a' && cp <= 'z' ? cp - 32 : cp;
        }
        if (cp < 0x100) {
            if (cp >= 0xe0 && cp <= 0xfe && cp != 0xf7) {
                return cp - 32;
            }
            if (cp == 0xb5) {
                return 0x39c;
            }
            if (cp == 0xff) {
                return 0x178;
            }
            return cp;
        }
        if (cp < 0x180) {
            if (cp == 0x131) {
                return 'I';
            }
            if (cp == 0x17f) {
                return 'S';
            }
            if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e)) {
                return (cp & 1) == 0 ? cp - 1 : cp;
            }
            if (cp != 0x138 && cp != 0x149 && cp != 0x130) {
                return (cp & 1) == 1 ? cp - 1 : cp;
            }
            return cp;
        }
        if (cp >= 0x3b1 && cp <= 0x3cb && cp != 0x3c2) {
            return cp - 32;
        }
        if (cp == 0x3c2) {
            return 0x3a3;
        }
        if (cp >= 0x3ac && cp <= 0x3af) {
            return cp == 0x3ac ? 0x386 : cp - 37;
        }
        if (cp >= 0x430 && cp <= 0x44f) {
            return cp - 32;
        }
        if (cp >= 0x450 && cp <= 0x45f) {
            return cp - 80;
        }
        if ((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48a && cp <= 0x4bf) || (cp >= 0x4d0 && cp <= 0x52f)
                || (cp >= 0x1e00 && cp <= 0x1e95) || (cp >= 0x1ea0 && cp <= 0x1eff)) {
            return (cp & 1) == 1 ? cp - 1 : cp;
        }
        if (cp >= 0x561 && cp <= 0x586) {
            return cp - 48;
        }
        if (cp >= 0xff41 && cp <= 0xff5a) {
            return cp - 32;
        }
        return cp;
    }

    public static char toLowerCase(char ch) {
        return (char) toLowerCase((int) ch);
    }

    public static int toLowerCase(int cp) {
        if (cp < 0x80) {
            return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
        }
        if (cp < 0x100) {
            return cp >= 0xc0 && cp <= 0xde && cp != 0xd7 ? cp + 32 : cp;
        }
        if (cp < 0x180) {
            if (cp == 0x130) {
                return 'i';
            }
            if (cp == 0x178) {
                return 0xff;
            }
            if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e)) {
                return (cp & 1) == 1 ? cp + 1 : cp;
            }
            if (cp != 0x138 && cp != 0x149 && cp != 0x131 && cp != 0x17f) {
                return (cp & 1) == 0 ? cp + 1 : cp;
            }
            return cp;
        }
        if (cp >= 0x391 && cp <= 0x3ab && cp != 0x3a2) {
            return cp + 32;
        }
        if (cp == 0x386) {
            return 0x3ac;
        }
        if (cp >= 0x388 && cp <= 0x38a) {
            return cp + 37;
        }
        if (cp >= 0x410 && cp <= 0x42f) {
            return cp + 32;
        }
        if (cp >= 0x400 && cp <= 0x40f) {
            return cp + 80;
        }
        if ((cp >= 0x460 && cp <= 0x481) || (cp >= 0x48a && cp <= 0x4bf) || (cp >= 0x4d0 && cp <= 0x52f)
                || (cp >= 0x1e00 && cp <= 0x1e95) || (cp >= 0x1ea0 && cp <= 0x1eff)) {
            return (cp & 1) == 0 ? cp + 1 : cp;
        }
        if (cp >= 0x531 && cp <= 0x556) {
            return cp + 48;
        }
        if (cp >= 0xff21 && cp <= 0xff3a) {
            return cp + 32;
        }
        return cp;
    }

    public static char toTitleCase(char ch) {
        return toUpperCase(ch);
    }

    public static int digit(char ch, int radix) {
        return digit((int) ch, radix);
    }

    public static int digit(int cp, int radix) {
        if (radix < MIN_RADIX || radix > MAX_RADIX) {
            return -1;
        }
        int d;
        if (cp >= '0' && cp <= '9') {
            d = cp - '0';
        } else if (cp >= 'a' && cp <= 'z') {
            d = cp - 'a' + 10;
        } else if (cp >= 'A' && cp <= 'Z') {
            d = cp - 'A' + 10;
        } else if (cp >= 0xff10 && cp <= 0xff19) {
            d = cp - 0xff10;
        } else if (cp >= 0xff21 && cp <= 0xff3a) {
            d = cp - 0xff21 + 10;
        } else if (cp >= 0xff41 && cp <= 0xff5a) {
            d = cp - 0xff41 + 10;
        } else if (isDigit(cp)) {
            d = (cp >= 0x0660 && cp <= 0x0669) ? cp - 0x660 : (cp >= 0x06f0 && cp <= 0x06f9) ? cp - 0x6f0 : cp - 0x966;
        } else {
            return -1;
        }
        return d < radix ? d : -1;
    }

    public static int getNumericValue(char ch) {
        return getNumericValue((int) ch);
    }

    public static int getNumericValue(int cp) {
        return digit(cp, MAX_RADIX);
    }

    public static char forDigit(int digit, int radix) {
        if (digit >= radix || digit < 0 || radix < MIN_RADIX || radix > MAX_RADIX) {
            return '\0';
        }
        return digit < 10 ? (char) ('0' + digit) : (char) ('a' - 10 + digit);
    }
}
