package caffeine;

/**
 * CaffeineMark-style string test: StringBuilder appends, substring, indexOf,
 * equals, compareTo and charAt on generated strings, repeated. Argument:
 * repetitions (default 25). Prints lengths, match counts and a checksum.
 */
public final class StringTest {
    private StringTest() {}

    static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

    /** Builds and searches one text; returns a checksum of what it found. */
    public static long round(int words, int salt) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            sb.append(WORDS[(i * 5 + salt) % WORDS.length]);
            sb.append(i % 10 == 9 ? '\n' : ' ');
            if (i % 16 == 0) {
                sb.append(i);
            }
        }
        String text = sb.toString();
        long check = text.length();
        int found = 0;
        int from = 0;
        while (true) {
            int at = text.indexOf("eta", from);
            if (at < 0) {
                break;
            }
            found++;
            from = at + 1;
        }
        check = check * 31 + found;
        int equal = 0;
        int less = 0;
        for (int i = 0; i + 7 <= text.length(); i += 7) {
            String piece = text.substring(i, i + 5);
            for (int w = 0; w < WORDS.length; w++) {
                if (piece.equals(WORDS[w])) {
                    equal++;
                }
                if (piece.compareTo(WORDS[w]) < 0) {
                    less++;
                }
            }
        }
        check = check * 31 + equal;
        check = check * 31 + less;
        int vowels = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u') {
                vowels++;
            }
        }
        String joined = String.valueOf(vowels) + "/" + Integer.toString(found) + ":" + text.substring(0, 12);
        return check * 31 + vowels + joined.length();
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        long check = 0;
        for (int r = 0; r < reps; r++) {
            check = check * 7 + round(400, r);
        }
        System.out.println("String reps=" + reps + " checksum=" + check);
    }
}
