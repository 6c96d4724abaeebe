package java.util.regex;

import java.util.ArrayList;

/**
 * A compiled regular expression: a backtracking matcher for the common
 * subset of Java's syntax. Supported: literals and escapes (\t \n \r \f \a
 * \e \xhh \\uhhhh, \Q...\E), . ^ $ \b \B, classes [...] with ranges,
 * negation and \d \D \s \S \w \W (also outside classes), groups (...) and
 * (?:...), alternation, and the quantifiers * + ? {n} {n,} {n,m} with lazy
 * variants. Anything else (lookaround, back references, named groups,
 * possessive quantifiers, flags, \p{...}) throws
 * UnsupportedOperationException at compile time.
 */
public final class Pattern implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String pattern;
    final Node root;
    final int groupCount;
    final int repeatCount;

    private Pattern(String regex) {
        this.pattern = regex;
        Parser p = new Parser(regex);
        this.root = p.parseAll();
        this.groupCount = p.groups;
        this.repeatCount = p.repeats;
    }

    public static Pattern compile(String regex) {
        return new Pattern(regex);
    }

    public static Pattern compile(String regex, int flags) {
        if (flags != 0) {
            throw new UnsupportedOperationException("regular expression flags are not supported");
        }
        return new Pattern(regex);
    }

    public String pattern() {
        return pattern;
    }

    public String toString() {
        return pattern;
    }

    public int flags() {
        return 0;
    }

    public Matcher matcher(CharSequence input) {
        return new Matcher(this, input);
    }

    public static boolean matches(String regex, CharSequence input) {
        return compile(regex).matcher(input).matches();
    }

    /** Quotes s so that it matches itself literally. */
    public static String quote(String s) {
        int e = s.indexOf("\\E");
        if (e < 0) {
            return "\\Q" + s + "\\E";
        }
        StringBuilder sb = new StringBuilder("\\Q");
        int from = 0;
        while (e >= 0) {
            sb.append(s, from, e).append("\\E\\\\E\\Q");
            from = e + 2;
            e = s.indexOf("\\E", from);
        }
        return sb.append(s, from, s.length()).append("\\E").toString();
    }

    public String[] split(CharSequence input) {
        return split(input, 0);
    }

    /**
     * Splits around matches: at most limit parts if limit > 0, trailing
     * empty parts removed if limit == 0, and no empty leading part for a
     * zero-width match at the start.
     */
    public String[] split(CharSequence input, int limit) {
        ArrayList<String> parts = new ArrayList<String>();
        Matcher m = matcher(input);
        int index = 0;
        boolean limited = limit > 0;
        while (m.find()) {
            if (limited && parts.size() >= limit - 1) {
                break;
            }
            if (index == 0 && m.start() == 0 && m.end() == 0) {
                continue;
            }
            parts.add(input.subSequence(index, m.start()).toString());
            index = m.end();
        }
        if (index == 0 && parts.isEmpty()) {
            return new String[] {input.toString()};
        }
        parts.add(input.subSequence(index, input.length()).toString());
        int n = parts.size();
        if (limit == 0) {
            while (n > 0 && parts.get(n - 1).isEmpty()) {
                n--;
            }
        }
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = parts.get(i);
        }
        return out;
    }

    // The matcher: a graph of nodes, each matching at a position and then
    // asking its successor (next) to match the rest, so that failure
    // anywhere backtracks into the alternatives still open.

    abstract static class Node {
        Node next;

        abstract boolean match(Matcher m, int i);
    }

    /** The end of the pattern: records where the match ended. */
    static final class Accept extends Node {
        boolean match(Matcher m, int i) {
            if (m.requireEnd && i != m.to) {
                return false;
            }
            m.matchEnd = i;
            return true;
        }
    }

    /** One char from a class. */
    static final class Single extends Node {
        final CharClass cls;

        Single(CharClass cls) {
            this.cls = cls;
        }

        boolean match(Matcher m, int i) {
            return i < m.to && cls.matches(m.text.charAt(i)) && next.match(m, i + 1);
        }
    }

    /** A repetition of a single char class, matched without recursion per char. */
    static final class SingleRepeat extends Node {
        final CharClass cls;
        final int min;
        final int max;
        final boolean lazy;

        SingleRepeat(CharClass cls, int min, int max, boolean lazy) {
            this.cls = cls;
            this.min = min;
            this.max = max;
            this.lazy = lazy;
        }

        boolean match(Matcher m, int i) {
            int n = 0;
            if (lazy) {
                while (true) {
                    if (n >= min && next.match(m, i + n)) {
                        return true;
                    }
                    if (n >= max || i + n >= m.to || !cls.matches(m.text.charAt(i + n))) {
                        return false;
                    }
                    n++;
                }
            }
            while (n < max && i + n < m.to && cls.matches(m.text.charAt(i + n))) {
                n++;
            }
            for (; n >= min; n--) {
                if (next.match(m, i + n)) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class Literal extends Node {
        final String s;

        Literal(String s) {
            this.s = s;
        }

        boolean match(Matcher m, int i) {
            int n = s.length();
            if (i + n > m.to) {
                return false;
            }
            for (int k = 0; k < n; k++) {
                if (m.text.charAt(i + k) != s.charAt(k)) {
                    return false;
                }
            }
            return next.match(m, i + n);
        }
    }

    /** ^, $, \b and \B. */
    static final class Anchor extends Node {
        final char kind;

        Anchor(char kind) {
            this.kind = kind;
        }

        boolean match(Matcher m, int i) {
            boolean ok;
            CharSequence t = m.text;
            int n = m.to;
            switch (kind) {
                case '^':
                    ok = i == 0;
                    break;
                case '$':
                    // End of input, or before a final line terminator.
                    // (but not between the \r and \n of a final \r\n).
                    ok = i == n || (i == n - 1 && isLineTerminator(t.charAt(i)) && !(t.charAt(i) == '\n' && i > 0 && t.charAt(i - 1) == '\r'))
                            || (i == n - 2 && t.charAt(i) == '\r' && t.charAt(i + 1) == '\n');
                    break;
                default:
                    // Word boundaries use Unicode letters and digits, unlike \w.
                    boolean before = i > 0 && isBoundaryWord(t.charAt(i - 1));
                    boolean after = i < n && isBoundaryWord(t.charAt(i));
                    ok = (before != after) == (kind == 'b');
            }
            return ok && next.match(m, i);
        }
    }

    static boolean isBoundaryWord(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    static boolean isLineTerminator(char c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    static final class GroupStart extends Node {
        final int group;

        GroupStart(int group) {
            this.group = group;
        }

        boolean match(Matcher m, int i) {
            int old = m.pending[group];
            m.pending[group] = i;
            if (next.match(m, i)) {
                return true;
            }
            m.pending[group] = old;
            return false;
        }
    }

    static final class GroupEnd extends Node {
        final int group;

        GroupEnd(int group) {
            this.group = group;
        }

        boolean match(Matcher m, int i) {
            int oldStart = m.groups[2 * group];
            int oldEnd = m.groups[2 * group + 1];
            m.groups[2 * group] = m.pending[group];
            m.groups[2 * group + 1] = i;
            if (next.match(m, i)) {
                return true;
            }
            m.groups[2 * group] = oldStart;
            m.groups[2 * group + 1] = oldEnd;
            return false;
        }
    }

    /** Alternatives; each branch ends by continuing with this node's next. */
    static final class Branch extends Node {
        final Node[] alternatives;

        Branch(Node[] alternatives) {
            this.alternatives = alternatives;
        }

        boolean match(Matcher m, int i) {
            for (int k = 0; k < alternatives.length; k++) {
                if (alternatives[k].match(m, i)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Passes on to next; ends a branch or repetition body. */
    static final class Join extends Node {
        boolean match(Matcher m, int i) {
            return next.match(m, i);
        }
    }

    /**
     * A repetition of a general sub-pattern. The matcher keeps, per
     * repetition, the number of iterations so far and where the current one
     * started; an iteration that matches nothing ends the loop.
     */
    static final class Repeat extends Node {
        Node body;
        final int min;
        final int max;
        final boolean lazy;
        final int id;

        Repeat(int min, int max, boolean lazy, int id) {
            this.min = min;
            this.max = max;
            this.lazy = lazy;
            this.id = id;
        }

        boolean match(Matcher m, int i) {
            int oldCount = m.counts[id];
            int oldStart = m.starts[id];
            m.counts[id] = 0;
            m.starts[id] = -1;
            boolean r = iterate(m, i);
            m.counts[id] = oldCount;
            m.starts[id] = oldStart;
            return r;
        }

        boolean iterate(Matcher m, int i) {
            int c = m.counts[id];
            if (c < min) {
                return again(m, i, c);
            }
            if (lazy) {
                return next.match(m, i) || (c < max && again(m, i, c));
            }
            return (c < max && again(m, i, c)) || next.match(m, i);
        }

        private boolean again(Matcher m, int i, int c) {
            int oldStart = m.starts[id];
            m.counts[id] = c + 1;
            m.starts[id] = i;
            boolean r = body.match(m, i);
            m.counts[id] = c;
            m.starts[id] = oldStart;
            return r;
        }
    }

    /** The end of a Repeat's body: loops back. */
    static final class RepeatTail extends Node {
        final Repeat repeat;

        RepeatTail(Repeat repeat) {
            this.repeat = repeat;
        }

        boolean match(Matcher m, int i) {
            int id = repeat.id;
            if (i == m.starts[id] && m.counts[id] > repeat.min) {
                // An iteration that matched nothing ends the loop (and keeps
                // its groups), as in Java.
                return repeat.next.match(m, i);
            }
            int c = m.counts[id];
            int s = m.starts[id];
            boolean r = repeat.iterate(m, i);
            m.counts[id] = c;
            m.starts[id] = s;
            return r;
        }
    }

    /** A set of chars: ranges, predefined classes, negation. */
    static final class CharClass {
        private int[] ranges = new int[8];
        private int nranges;
        private final ArrayList<CharClass> members = new ArrayList<CharClass>();
        boolean negated;
        char kind; // a predefined class (d s w D S W), '.' or 0

        static CharClass of(char kind) {
            CharClass c = new CharClass();
            c.kind = kind;
            return c;
        }

        void add(int lo, int hi) {
            if (nranges + 2 > ranges.length) {
                int[] r = new int[ranges.length * 2];
                System.arraycopy(ranges, 0, r, 0, nranges);
                ranges = r;
            }
            ranges[nranges++] = lo;
            ranges[nranges++] = hi;
        }

        void add(CharClass member) {
            members.add(member);
        }

        static boolean isWord(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        }

        static boolean isSpace(char c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
        }

        boolean matches(char c) {
            return raw(c) != negated;
        }

        private boolean raw(char c) {
            switch (kind) {
                case 'd':
                    return c >= '0' && c <= '9';
                case 'D':
                    return !(c >= '0' && c <= '9');
                case 's':
                    return isSpace(c);
                case 'S':
                    return !isSpace(c);
                case 'w':
                    return isWord(c);
                case 'W':
                    return !isWord(c);
                case '.':
                    return !isLineTerminator(c);
                default:
                    break;
            }
            for (int i = 0; i < nranges; i += 2) {
                if (c >= ranges[i] && c <= ranges[i + 1]) {
                    return true;
                }
            }
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).matches(c)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A recursive-descent parser from the pattern to the node graph. */
    private static final class Parser {
        private final String re;
        private int pos;
        int groups;
        int repeats;

        Parser(String re) {
            this.re = re;
        }

        private PatternSyntaxException error(String desc, int at) {
            return new PatternSyntaxException(desc, re, at);
        }

        private static UnsupportedOperationException unsupported(String what) {
            return new UnsupportedOperationException("regular expression feature not supported: " + what);
        }

        Node parseAll() {
            Node[] ends = new Node[1];
            Node start = parseAlternation(ends);
            if (pos < re.length()) {
                // Only an unmatched ')' stops the parser early.
                throw error("Unmatched closing ')'", pos - 1 < 0 ? 0 : pos - 1);
            }
            ends[0].next = new Accept();
            return start;
        }

        // Parses alternatives up to ')' or the end; returns the first node and
        // stores in ends[0] the node whose next continues after them.
        private Node parseAlternation(Node[] ends) {
            ArrayList<Node> starts = new ArrayList<Node>();
            Join join = new Join();
            while (true) {
                Node[] e = new Node[1];
                Node s = parseSequence(e);
                e[0].next = join;
                starts.add(s);
                if (pos < re.length() && re.charAt(pos) == '|') {
                    pos++;
                    continue;
                }
                break;
            }
            ends[0] = join;
            if (starts.size() == 1) {
                return starts.get(0);
            }
            Branch b = new Branch(starts.toArray(new Node[starts.size()]));
            return b;
        }

        private Node parseSequence(Node[] ends) {
            Join head = new Join();
            Node tail = head;
            while (pos < re.length()) {
                char c = re.charAt(pos);
                if (c == '|' || c == ')') {
                    break;
                }
                Node[] atomEnd = new Node[1];
                int atomPos = pos;
                Node atom = parseAtom(atomEnd);
                atom = parseQuantifier(atom, atomEnd, atomPos);
                tail.next = atom;
                tail = atomEnd[0];
            }
            ends[0] = tail;
            return head;
        }

        private Node parseAtom(Node[] end) {
            char c = re.charAt(pos);
            switch (c) {
                case '(': {
                    pos++;
                    int group = -1;
                    if (re.startsWith("?:", pos)) {
                        pos += 2;
                    } else if (pos < re.length() && re.charAt(pos) == '?') {
                        throw unsupported("(?" + (pos + 1 < re.length() ? String.valueOf(re.charAt(pos + 1)) : "") + " constructs");
                    } else {
                        group = ++groups;
                    }
                    Node[] innerEnd = new Node[1];
                    Node inner = parseAlternation(innerEnd);
                    if (pos >= re.length() || re.charAt(pos) != ')') {
                        throw error("Unclosed group", re.length());
                    }
                    pos++;
                    if (group < 0) {
                        end[0] = innerEnd[0];
                        return inner;
                    }
                    GroupStart gs = new GroupStart(group);
                    GroupEnd ge = new GroupEnd(group);
                    gs.next = inner;
                    innerEnd[0].next = ge;
                    end[0] = ge;
                    return gs;
                }
                case '[': {
                    pos++;
                    Single s = new Single(parseClass());
                    end[0] = s;
                    return s;
                }
                case '.': {
                    pos++;
                    Single s = new Single(CharClass.of('.'));
                    end[0] = s;
                    return s;
                }
                case '^':
                case '$': {
                    pos++;
                    Anchor a = new Anchor(c);
                    end[0] = a;
                    return a;
                }
                case '*':
                case '+':
                case '?':
                    throw error("Dangling meta character '" + c + "'", pos);
                case '{': {
                    // Java accepts a counted closure with nothing before it
                    // (it repeats the empty string); anything else is an error.
                    int close = re.indexOf('}', pos);
                    String body = close < 0 ? "" : re.substring(pos + 1, close);
                    int comma = body.indexOf(',');
                    String lo = comma < 0 ? body : body.substring(0, comma);
                    String hi = comma < 0 ? "0" : (body.substring(comma + 1).isEmpty() ? "0" : body.substring(comma + 1));
                    if (!digits(lo) || !digits(hi)) {
                        throw error("Illegal repetition", pos);
                    }
                    pos = close + 1;
                    Join empty = new Join();
                    end[0] = empty;
                    return empty;
                }
                case '\\':
                    return parseEscape(end);
                default: {
                    pos++;
                    Literal l = new Literal(String.valueOf(c));
                    end[0] = l;
                    return l;
                }
            }
        }

        private static boolean digits(String s) {
            if (s.isEmpty()) {
                return false;
            }
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                    return false;
                }
            }
            return true;
        }

        private Node parseEscape(Node[] end) {
            pos++;
            if (pos >= re.length()) {
                throw error("Unexpected internal error", pos);
            }
            char c = re.charAt(pos);
            if (c == 'Q') {
                int close = re.indexOf("\\E", pos + 1);
                String quoted = close < 0 ? re.substring(pos + 1) : re.substring(pos + 1, close);
                pos = close < 0 ? re.length() : close + 2;
                Literal l = new Literal(quoted);
                end[0] = l;
                return l;
            }
            if (c == 'b' || c == 'B') {
                pos++;
                Anchor a = new Anchor(c);
                end[0] = a;
                return a;
            }
            if ("dDsSwW".indexOf(c) >= 0) {
                pos++;
                Single s = new Single(CharClass.of(c));
                end[0] = s;
                return s;
            }
            char lit = escapedChar();
            Literal l = new Literal(String.valueOf(lit));
            end[0] = l;
            return l;
        }

        // The char an escape stands for; pos is at the char after '\'.
        private char escapedChar() {
            char c = re.charAt(pos++);
            switch (c) {
                case 't':
                    return '\t';
                case 'n':
                    return '\n';
                case 'r':
                    return '\r';
                case 'f':
                    return '\f';
                case 'a':
                    return '\u0007';
                case 'e':
                    return '\u001b';
                case '0': {
                    int v = 0;
                    int k = 0;
                    while (k < 3 && pos < re.length() && re.charAt(pos) >= '0' && re.charAt(pos) <= '7' && v * 8 + (re.charAt(pos) - '0') <= 0377) {
                        v = v * 8 + (re.charAt(pos++) - '0');
                        k++;
                    }
                    if (k == 0) {
                        throw error("Illegal octal escape sequence", pos);
                    }
                    return (char) v;
                }
                case 'x':
                    return (char) hex(2);
                case 'u':
                    return (char) hex(4);
                default:
                    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                        throw unsupported("\\" + c);
                    }
                    if (c >= '1' && c <= '9') {
                        throw unsupported("back references");
                    }
                    return c;
            }
        }

        private int hex(int n) {
            if (pos + n > re.length()) {
                throw error("Illegal hexadecimal escape sequence", pos);
            }
            int v = 0;
            for (int k = 0; k < n; k++) {
                int d = Character.digit(re.charAt(pos++), 16);
                if (d < 0) {
                    throw error("Illegal hexadecimal escape sequence", pos - 1);
                }
                v = v * 16 + d;
            }
            return v;
        }

        // Parses a class after '['; pos ends after the closing ']'.
        private CharClass parseClass() {
            CharClass cls = new CharClass();
            if (pos < re.length() && re.charAt(pos) == '^') {
                cls.negated = true;
                pos++;
            }
            boolean first = true;
            while (true) {
                if (pos >= re.length()) {
                    throw error("Unclosed character class", re.length() - 1);
                }
                char c = re.charAt(pos);
                if (c == ']' && !first) {
                    pos++;
                    return cls;
                }
                first = false;
                if (c == '[') {
                    pos++;
                    cls.add(parseClass());
                    continue;
                }
                if (c == '&' && re.startsWith("&&", pos)) {
                    throw unsupported("class intersection");
                }
                int lo;
                if (c == '\\') {
                    pos++;
                    if (pos >= re.length()) {
                        throw error("Unclosed character class", re.length() - 1);
                    }
                    char e = re.charAt(pos);
                    if ("dDsSwW".indexOf(e) >= 0) {
                        pos++;
                        cls.add(CharClass.of(e));
                        continue;
                    }
                    if (e == 'Q') {
                        int close = re.indexOf("\\E", pos + 1);
                        String quoted = close < 0 ? re.substring(pos + 1) : re.substring(pos + 1, close);
                        pos = close < 0 ? re.length() : close + 2;
                        for (int k = 0; k < quoted.length(); k++) {
                            cls.add(quoted.charAt(k), quoted.charAt(k));
                        }
                        continue;
                    }
                    lo = escapedChar();
                } else {
                    pos++;
                    lo = c;
                }
                if (pos + 1 < re.length() && re.charAt(pos) == '-' && re.charAt(pos + 1) != ']') {
                    pos++;
                    int hi;
                    char h = re.charAt(pos);
                    if (h == '\\') {
                        pos++;
                        hi = escapedChar();
                    } else if (h == '[') {
                        throw error("Illegal character range", pos);
                    } else {
                        pos++;
                        hi = h;
                    }
                    if (hi < lo) {
                        throw error("Illegal character range", pos - 1);
                    }
                    cls.add(lo, hi);
                } else {
                    cls.add(lo, lo);
                }
            }
        }

        private Node parseQuantifier(Node atom, Node[] end, int atomPos) {
            if (pos >= re.length()) {
                return atom;
            }
            char c = re.charAt(pos);
            int min;
            int max;
            if (c == '*') {
                min = 0;
                max = Integer.MAX_VALUE;
                pos++;
            } else if (c == '+') {
                min = 1;
                max = Integer.MAX_VALUE;
                pos++;
            } else if (c == '?') {
                min = 0;
                max = 1;
                pos++;
            } else if (c == '{') {
                int close = re.indexOf('}', pos);
                if (close < 0) {
                    throw error("Unclosed counted closure", re.length());
                }
                String body = re.substring(pos + 1, close);
                int comma = body.indexOf(',');
                try {
                    if (comma < 0) {
                        min = Integer.parseInt(body);
                        max = min;
                    } else {
                        min = Integer.parseInt(body.substring(0, comma));
                        String rest = body.substring(comma + 1);
                        max = rest.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(rest);
                    }
                } catch (NumberFormatException e) {
                    throw error("Illegal repetition", pos);
                }
                if (min < 0 || max < min) {
                    throw error("Illegal repetition range", pos);
                }
                pos = close + 1;
            } else {
                return atom;
            }
            boolean lazy = false;
            if (pos < re.length() && re.charAt(pos) == '?') {
                lazy = true;
                pos++;
            } else if (pos < re.length() && re.charAt(pos) == '+') {
                throw unsupported("possessive quantifiers");
            }
            if (pos < re.length() && "*+?".indexOf(re.charAt(pos)) >= 0) {
                throw error("Dangling meta character '" + re.charAt(pos) + "'", pos);
            }
            if (atom instanceof Single && end[0] == atom) {
                SingleRepeat r = new SingleRepeat(((Single) atom).cls, min, max, lazy);
                end[0] = r;
                return r;
            }
            if (atom instanceof Literal && ((Literal) atom).s.length() == 1 && end[0] == atom) {
                CharClass one = new CharClass();
                char ch = ((Literal) atom).s.charAt(0);
                one.add(ch, ch);
                SingleRepeat r = new SingleRepeat(one, min, max, lazy);
                end[0] = r;
                return r;
            }
            if (atom instanceof Literal && end[0] == atom) {
                // \Q...\E quoted text: the quantifier applies to its last char.
                String s = ((Literal) atom).s;
                Literal head = new Literal(s.substring(0, s.length() - 1));
                CharClass one = new CharClass();
                one.add(s.charAt(s.length() - 1), s.charAt(s.length() - 1));
                SingleRepeat r = new SingleRepeat(one, min, max, lazy);
                head.next = r;
                end[0] = r;
                return head;
            }
            if (atom instanceof Anchor) {
                // Repeating an anchor changes nothing but whether it is optional.
                if (min > 0) {
                    return atom;
                }
                Join skip = new Join();
                end[0] = skip;
                return skip;
            }
            Repeat r = new Repeat(min, max, lazy, repeats++);
            r.body = atom;
            end[0].next = new RepeatTail(r);
            end[0] = r;
            return r;
        }
    }
}
