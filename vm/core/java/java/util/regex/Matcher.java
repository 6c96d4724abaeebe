package java.util.regex;

/** Matches a Pattern against a char sequence; see Pattern for the syntax supported. */
public final class Matcher {
    private final Pattern pattern;
    CharSequence text;
    int to;
    // Start and end of each group of the last match (group 0 is the whole
    // match); -1 when the group did not take part.
    int[] groups;
    // Per group, where the group's current attempt started.
    int[] pending;
    // Per Repeat node: iterations so far and start of the current one.
    int[] counts;
    int[] starts;
    boolean requireEnd;
    int matchEnd;
    private boolean matched;
    // Where find() continues.
    private int searchFrom;
    private int appendPos;

    Matcher(Pattern pattern, CharSequence text) {
        this.pattern = pattern;
        this.groups = new int[2 * (pattern.groupCount + 1)];
        this.pending = new int[pattern.groupCount + 1];
        this.counts = new int[pattern.repeatCount];
        this.starts = new int[pattern.repeatCount];
        reset(text);
    }

    public Pattern pattern() {
        return pattern;
    }

    public Matcher reset() {
        to = text.length();
        matched = false;
        searchFrom = 0;
        appendPos = 0;
        for (int i = 0; i < groups.length; i++) {
            groups[i] = -1;
        }
        return this;
    }

    public Matcher reset(CharSequence input) {
        text = input;
        return reset();
    }

    private boolean matchAt(int from, boolean anchoredEnd) {
        for (int i = 0; i < groups.length; i++) {
            groups[i] = -1;
        }
        requireEnd = anchoredEnd;
        if (pattern.root.match(this, from)) {
            groups[0] = from;
            groups[1] = matchEnd;
            matched = true;
            return true;
        }
        matched = false;
        return false;
    }

    public boolean matches() {
        boolean r = matchAt(0, true);
        searchFrom = r ? groups[1] : 0;
        return r;
    }

    public boolean lookingAt() {
        boolean r = matchAt(0, false);
        searchFrom = r ? groups[1] : 0;
        return r;
    }

    public boolean find() {
        int from = searchFrom;
        if (from > to) {
            matched = false;
            return false;
        }
        for (int i = from; i <= to; i++) {
            if (matchAt(i, false)) {
                // After an empty match, the next search starts one further.
                searchFrom = groups[1] == groups[0] ? groups[1] + 1 : groups[1];
                return true;
            }
        }
        searchFrom = to + 1;
        return false;
    }

    public boolean find(int start) {
        if (start < 0 || start > to) {
            throw new IndexOutOfBoundsException("Illegal start index");
        }
        reset();
        searchFrom = start;
        return find();
    }

    private void checkMatch() {
        if (!matched) {
            throw new IllegalStateException("No match found");
        }
    }

    private void checkGroup(int group) {
        if (group < 0 || group > pattern.groupCount) {
            throw new IndexOutOfBoundsException("No group " + group);
        }
    }

    public int groupCount() {
        return pattern.groupCount;
    }

    public int start() {
        checkMatch();
        return groups[0];
    }

    public int start(int group) {
        checkMatch();
        checkGroup(group);
        return groups[2 * group];
    }

    public int end() {
        checkMatch();
        return groups[1];
    }

    public int end(int group) {
        checkMatch();
        checkGroup(group);
        return groups[2 * group + 1];
    }

    public String group() {
        return group(0);
    }

    public String group(int group) {
        checkMatch();
        checkGroup(group);
        int s = groups[2 * group];
        return s < 0 ? null : text.subSequence(s, groups[2 * group + 1]).toString();
    }

    public boolean hitEnd() {
        return matched && groups[1] == to;
    }

    public static String quoteReplacement(String s) {
        if (s.indexOf('\\') < 0 && s.indexOf('$') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' || c == '$') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    // Appends replacement with $n replaced by group n and \x by x.
    private void appendExpanded(StringBuilder sb, String replacement) {
        int i = 0;
        int n = replacement.length();
        while (i < n) {
            char c = replacement.charAt(i);
            if (c == '\\') {
                i++;
                if (i >= n) {
                    throw new IllegalArgumentException("character to be escaped is missing");
                }
                sb.append(replacement.charAt(i++));
            } else if (c == '$') {
                i++;
                if (i >= n) {
                    throw new IllegalArgumentException("Illegal group reference: group index is missing");
                }
                if (replacement.charAt(i) == '{') {
                    throw new UnsupportedOperationException("named groups are not supported");
                }
                int g = replacement.charAt(i) - '0';
                if (g < 0 || g > 9) {
                    throw new IllegalArgumentException("Illegal group reference");
                }
                i++;
                // Take more digits while they still name an existing group.
                while (i < n) {
                    int d = replacement.charAt(i) - '0';
                    if (d < 0 || d > 9 || g * 10 + d > pattern.groupCount) {
                        break;
                    }
                    g = g * 10 + d;
                    i++;
                }
                if (g > pattern.groupCount) {
                    throw new IndexOutOfBoundsException("No group " + g);
                }
                String v = group(g);
                if (v != null) {
                    sb.append(v);
                }
            } else {
                sb.append(c);
                i++;
            }
        }
    }

    public String replaceAll(String replacement) {
        reset();
        if (!find()) {
            return text.toString();
        }
        StringBuilder sb = new StringBuilder();
        int last = 0;
        do {
            sb.append(text, last, groups[0]);
            appendExpanded(sb, replacement);
            last = groups[1];
        } while (find());
        sb.append(text, last, to);
        return sb.toString();
    }

    public String replaceFirst(String replacement) {
        reset();
        if (!find()) {
            return text.toString();
        }
        StringBuilder sb = new StringBuilder();
        sb.append(text, 0, groups[0]);
        appendExpanded(sb, replacement);
        sb.append(text, groups[1], to);
        return sb.toString();
    }

    public Matcher appendReplacement(StringBuffer sb, String replacement) {
        checkMatch();
        StringBuilder tmp = new StringBuilder();
        tmp.append(text, appendPos, groups[0]);
        appendExpanded(tmp, replacement);
        sb.append(tmp);
        appendPos = groups[1];
        return this;
    }

    public StringBuffer appendTail(StringBuffer sb) {
        sb.append(text, appendPos, to);
        return sb;
    }

    public String toString() {
        return "java.util.regex.Matcher[pattern=" + pattern + " region=0," + to + " lastmatch=" + (matched ? group() : "") + "]";
    }
}
