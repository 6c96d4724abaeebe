package java.nio.charset;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A named character encoding. This platform supports the six standard
 * charsets (UTF-8, the default, as on Android; ISO-8859-1; US-ASCII;
 * UTF-16, UTF-16BE, UTF-16LE); String's byte constructors and getBytes do
 * the coding by canonical name. There are no CharsetEncoder/Decoder or
 * buffers.
 */
public abstract class Charset implements Comparable<Charset> {
    // Canonical names, then their aliases (matched ignoring case), from
    // the platform's registry of names.
    private static final String[][] KNOWN = {
        {"UTF-8", "UTF8", "unicode-1-1-utf-8"},
        {"ISO-8859-1", "iso-ir-100", "ISO_8859-1", "latin1", "l1", "IBM819", "cp819", "csISOLatin1",
            "819", "IBM-819", "ISO8859_1", "ISO_8859-1:1987", "ISO_8859_1", "8859_1", "ISO8859-1"},
        {"US-ASCII", "iso-ir-6", "ANSI_X3.4-1986", "ISO_646.irv:1991", "ASCII", "csASCII",
            "iso_646.irv:1983", "ANSI_X3.4-1968", "ISO646-US", "default", "cp367", "us", "IBM367", "646", "ascii7"},
        {"UTF-16", "UTF_16", "utf16", "unicode", "UnicodeBig"},
        {"UTF-16BE", "UTF_16BE", "ISO-10646-UCS-2", "X-UTF-16BE", "UnicodeBigUnmarked"},
        {"UTF-16LE", "UTF_16LE", "X-UTF-16LE", "UnicodeLittleUnmarked"},
    };
    private static final Charset[] charsets = new Charset[KNOWN.length];

    private final String name;
    private final String[] aliases;

    protected Charset(String canonicalName, String[] aliases) {
        checkName(canonicalName);
        if (aliases == null) {
            aliases = new String[0];
        }
        for (int i = 0; i < aliases.length; i++) {
            checkName(aliases[i]);
        }
        this.name = canonicalName;
        this.aliases = aliases.clone();
    }

    private static final class Standard extends Charset {
        Standard(String[] names) {
            super(names[0], tail(names));
        }
    }

    private static String[] tail(String[] a) {
        String[] t = new String[a.length - 1];
        System.arraycopy(a, 1, t, 0, t.length);
        return t;
    }

    private static void checkName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("Null charset name");
        }
        int n = name.length();
        if (n == 0) {
            throw new IllegalCharsetNameException(name);
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            boolean alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alnum && (i == 0 || (c != '-' && c != '+' && c != ':' && c != '_' && c != '.'))) {
                throw new IllegalCharsetNameException(name);
            }
        }
    }

    // Returns the charset named name, or null if there is none; throws for
    // an illegal name.
    private static Charset lookup(String name) {
        checkName(name);
        for (int i = 0; i < KNOWN.length; i++) {
            String[] names = KNOWN[i];
            for (int j = 0; j < names.length; j++) {
                if (names[j].equalsIgnoreCase(name)) {
                    synchronized (charsets) {
                        if (charsets[i] == null) {
                            charsets[i] = new Standard(names);
                        }
                        return charsets[i];
                    }
                }
            }
        }
        return null;
    }

    public static Charset forName(String charsetName) {
        Charset cs = lookup(charsetName);
        if (cs == null) {
            throw new UnsupportedCharsetException(charsetName);
        }
        return cs;
    }

    public static boolean isSupported(String charsetName) {
        return lookup(charsetName) != null;
    }

    /** Returns UTF-8, Android's default charset. */
    public static Charset defaultCharset() {
        return forName("UTF-8");
    }

    public static SortedMap<String, Charset> availableCharsets() {
        TreeMap<String, Charset> m = new TreeMap<String, Charset>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < KNOWN.length; i++) {
            m.put(KNOWN[i][0], forName(KNOWN[i][0]));
        }
        return m;
    }

    public final String name() {
        return name;
    }

    public String displayName() {
        return name;
    }

    public final Set<String> aliases() {
        HashSet<String> s = new HashSet<String>();
        for (int i = 0; i < aliases.length; i++) {
            s.add(aliases[i]);
        }
        return Collections.unmodifiableSet(s);
    }

    public final boolean isRegistered() {
        return !name.startsWith("X-") && !name.startsWith("x-");
    }

    public boolean canEncode() {
        return true;
    }

    public final int compareTo(Charset that) {
        return name.compareToIgnoreCase(that.name);
    }

    public final boolean equals(Object o) {
        return o instanceof Charset && name.equals(((Charset) o).name);
    }

    public final int hashCode() {
        return name.hashCode();
    }

    public final String toString() {
        return name;
    }
}
