package java.util;

import java.io.IOException;

/**
 * A printf-style formatter (String.format, PrintStream.printf) for the
 * common conversions: %b %c %d %o %x %e %f %s %h %n %%, with argument
 * indices, the flags - # + space 0 , ( and width and precision. Numbers
 * use the ROOT locale. Floating-point values are rounded half-up from the
 * digits of Double.toString, as the Java platform does. BigInteger,
 * BigDecimal, dates, %g and %a are not supported.
 */
public final class Formatter implements java.io.Closeable, java.io.Flushable {
    private final Appendable out;

    public Formatter() {
        this(new StringBuilder());
    }

    public Formatter(Appendable a) {
        out = a == null ? new StringBuilder() : a;
    }

    /** Creates a formatter; the locale is ignored (everything is formatted as in ROOT). */
    public Formatter(Locale l) {
        this(new StringBuilder());
    }

    public Formatter(Appendable a, Locale l) {
        this(a);
    }

    public Locale locale() {
        return Locale.ROOT;
    }

    public Appendable out() {
        return out;
    }

    public String toString() {
        return out.toString();
    }

    public void flush() {
    }

    public void close() {
    }

    public Formatter format(String format, Object... args) {
        StringBuilder sb = new StringBuilder();
        formatTo(sb, format, args);
        try {
            out.append(sb);
        } catch (IOException e) {
            // Like the Java platform, the error is recorded, not thrown;
            // this formatter has nowhere to record it.
        }
        return this;
    }

    private static final String FLAGS = "-#+ 0,(";

    private static void formatTo(StringBuilder sb, String format, Object[] args) {
        int ordinary = 0;
        int last = -1;
        int n = format.length();
        int i = 0;
        while (i < n) {
            char ch = format.charAt(i);
            if (ch != '%') {
                sb.append(ch);
                i++;
                continue;
            }
            int start = i;
            i++;
            // %[argument_index$][flags][width][.precision]conversion
            int index = 0;
            int j = i;
            while (j < n && format.charAt(j) >= '0' && format.charAt(j) <= '9') {
                j++;
            }
            if (j < n && j > i && format.charAt(j) == '$') {
                index = Integer.parseInt(format.substring(i, j));
                i = j + 1;
            }
            String flags = "";
            boolean previous = false;
            while (i < n && (FLAGS.indexOf(format.charAt(i)) >= 0 || format.charAt(i) == '<')) {
                if (format.charAt(i) == '<') {
                    previous = true;
                } else {
                    flags += format.charAt(i);
                }
                i++;
            }
            int width = -1;
            j = i;
            while (j < n && format.charAt(j) >= '0' && format.charAt(j) <= '9') {
                j++;
            }
            if (j > i) {
                width = Integer.parseInt(format.substring(i, j));
                i = j;
            }
            int precision = -1;
            if (i < n && format.charAt(i) == '.') {
                j = i + 1;
                while (j < n && format.charAt(j) >= '0' && format.charAt(j) <= '9') {
                    j++;
                }
                if (j == i + 1) {
                    throw new UnknownFormatConversionException(".");
                }
                precision = Integer.parseInt(format.substring(i + 1, j));
                i = j;
            }
            if (i >= n) {
                throw new UnknownFormatConversionException("%");
            }
            char conv = format.charAt(i++);
            String spec = format.substring(start, i);
            if (conv == 'n') {
                sb.append('\n');
                continue;
            }
            if (conv == '%') {
                pad(sb, "%", flags, width);
                continue;
            }
            Object arg;
            if (previous) {
                if (last < 0 || last >= args.length) {
                    throw new MissingFormatArgumentException(spec);
                }
                arg = args[last];
            } else {
                int k = index > 0 ? index - 1 : ordinary++;
                if (args == null || k >= args.length) {
                    throw new MissingFormatArgumentException(spec);
                }
                last = k;
                arg = args[k];
            }
            boolean upper = Character.isUpperCase(conv);
            String s = convert(Character.toLowerCase(conv), arg, flags, precision);
            if (upper) {
                s = s.toUpperCase();
            }
            if (flags.indexOf('0') >= 0 && "doxef".indexOf(Character.toLowerCase(conv)) >= 0) {
                s = zeroPad(s, width);
            }
            pad(sb, s, flags, width);
        }
    }

    // Inserts zeros after any sign or radix prefix to reach width; NaN and
    // Infinity are left to space padding.
    private static String zeroPad(String s, int width) {
        if (s.length() >= width || s.indexOf('N') >= 0 || s.indexOf('n') >= 0) {
            return s;
        }
        int at = 0;
        while (at < s.length() && "+- (".indexOf(s.charAt(at)) >= 0) {
            at++;
        }
        if (s.startsWith("0x", at) || s.startsWith("0X", at)) {
            at += 2;
        }
        StringBuilder sb = new StringBuilder(s.substring(0, at));
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s, at, s.length()).toString();
    }

    private static void pad(StringBuilder sb, String s, String flags, int width) {
        int fill = width - s.length();
        if (fill <= 0) {
            sb.append(s);
            return;
        }
        if (flags.indexOf('-') >= 0) {
            sb.append(s);
            for (int i = 0; i < fill; i++) {
                sb.append(' ');
            }
            return;
        }
        for (int i = 0; i < fill; i++) {
            sb.append(' ');
        }
        sb.append(s);
    }

    private static String convert(char conv, Object arg, String flags, int precision) {
        switch (conv) {
            case 'b':
                return truncate(String.valueOf(arg == null ? false : (arg instanceof Boolean ? ((Boolean) arg).booleanValue() : true)), precision);
            case 's':
                return truncate(String.valueOf(arg), precision);
            case 'h':
                return truncate(arg == null ? "null" : Integer.toHexString(arg.hashCode()), precision);
            case 'c':
                if (arg == null) {
                    return "null";
                }
                if (arg instanceof Character) {
                    return String.valueOf(((Character) arg).charValue());
                }
                if (arg instanceof Integer || arg instanceof Short || arg instanceof Byte) {
                    return new String(Character.toChars(((Number) arg).intValue()));
                }
                throw new IllegalFormatConversionException(conv, arg.getClass());
            case 'd':
            case 'o':
            case 'x':
                return integer(conv, arg, flags);
            case 'e':
            case 'f':
                return floating(conv, arg, flags, precision);
            default:
                throw new UnknownFormatConversionException(String.valueOf(conv));
        }
    }

    private static String truncate(String s, int precision) {
        return precision >= 0 && precision < s.length() ? s.substring(0, precision) : s;
    }

    private static String integer(char conv, Object arg, String flags) {
        if (arg == null) {
            return "null";
        }
        long v;
        int bits;
        if (arg instanceof Integer) {
            v = ((Integer) arg).intValue();
            bits = 32;
        } else if (arg instanceof Long) {
            v = ((Long) arg).longValue();
            bits = 64;
        } else if (arg instanceof Short) {
            v = ((Short) arg).shortValue();
            bits = 16;
        } else if (arg instanceof Byte) {
            v = ((Byte) arg).byteValue();
            bits = 8;
        } else {
            throw new IllegalFormatConversionException(conv, arg.getClass());
        }
        if (conv == 'd') {
            String digits = v < 0 ? Long.toString(v).substring(1) : Long.toString(v);
            if (flags.indexOf(',') >= 0) {
                digits = group(digits);
            }
            return sign(digits, v < 0, flags);
        }
        // Octal and hex show the two's complement of the argument's type.
        long u = bits == 64 ? v : v & ((1L << bits) - 1);
        String digits = conv == 'o' ? Long.toOctalString(u) : Long.toHexString(u);
        if (flags.indexOf('#') >= 0) {
            digits = (conv == 'o' ? "0" : "0x") + digits;
        }
        return digits;
    }

    private static String group(String digits) {
        StringBuilder sb = new StringBuilder();
        int first = digits.length() % 3;
        if (first == 0) {
            first = 3;
        }
        sb.append(digits, 0, Math.min(first, digits.length()));
        for (int i = first; i < digits.length(); i += 3) {
            sb.append(',').append(digits, i, i + 3);
        }
        return sb.toString();
    }

    // Applies the sign flags to a magnitude; the zero flag is handled by
    // the caller's width through zeroPad.
    private static String sign(String magnitude, boolean negative, String flags) {
        if (negative) {
            return flags.indexOf('(') >= 0 ? "(" + magnitude + ")" : "-" + magnitude;
        }
        if (flags.indexOf('+') >= 0) {
            return "+" + magnitude;
        }
        if (flags.indexOf(' ') >= 0) {
            return " " + magnitude;
        }
        return magnitude;
    }

    private static String floating(char conv, Object arg, String flags, int precision) {
        if (arg == null) {
            return "null";
        }
        double v;
        if (arg instanceof Double) {
            v = ((Double) arg).doubleValue();
        } else if (arg instanceof Float) {
            v = ((Float) arg).floatValue();
        } else {
            throw new IllegalFormatConversionException(conv, arg.getClass());
        }
        if (precision < 0) {
            precision = 6;
        }
        if (v != v) {
            return "NaN";
        }
        boolean negative = v < 0 || (v == 0.0 && 1.0 / v < 0);
        if (Double.isInfinite(v)) {
            return negative ? (flags.indexOf('(') >= 0 ? "(Infinity)" : "-Infinity") : sign("Infinity", false, flags);
        }
        // Decimal digits and exponent of the shortest representation.
        String s = Double.toString(Math.abs(v));
        int e = s.indexOf('E');
        int exp = 0;
        if (e >= 0) {
            exp = Integer.parseInt(s.substring(e + 1));
            s = s.substring(0, e);
        }
        int dot = s.indexOf('.');
        String digits = s.substring(0, dot) + s.substring(dot + 1);
        int point = dot + exp; // digits[0:point] is the integer part
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        point -= lead;
        String body;
        if (conv == 'f') {
            body = fixed(digits, point, precision);
            if (flags.indexOf(',') >= 0) {
                int p = body.indexOf('.');
                String ip = p < 0 ? body : body.substring(0, p);
                body = group(ip) + (p < 0 ? "" : body.substring(p));
            }
        } else {
            body = scientific(digits, point, precision);
        }
        if (precision == 0 && flags.indexOf('#') >= 0) {
            body += ".";
        }
        return sign(body, negative, flags);
    }

    // Rounds the decimal digits (value 0.digits * 10^point) half-up to the
    // given number of fraction digits.
    private static String fixed(String digits, int point, int precision) {
        int keep = point + precision; // digits to keep
        char[] d;
        if (keep < 0) {
            d = new char[] {'0'};
            point = 1;
        } else {
            d = round(digits, keep);
            if (d.length > keep) {
                point++; // the rounding carried into a new leading digit
            }
        }
        StringBuilder sb = new StringBuilder();
        if (point <= 0) {
            sb.append('0');
        } else {
            for (int i = 0; i < point; i++) {
                sb.append(i < d.length ? d[i] : '0');
            }
        }
        if (precision > 0) {
            sb.append('.');
            for (int i = 0; i < precision; i++) {
                int k = point + i;
                sb.append(k >= 0 && k < d.length ? d[k] : '0');
            }
        }
        return sb.toString();
    }

    private static String scientific(String digits, int point, int precision) {
        boolean zero = digits.equals("0");
        char[] d = round(digits, precision + 1);
        int exp = zero ? 0 : point - 1;
        if (d.length > precision + 1) {
            exp++;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(d[0]);
        if (precision > 0) {
            sb.append('.');
            for (int i = 1; i <= precision; i++) {
                sb.append(i < d.length ? d[i] : '0');
            }
        }
        sb.append(exp < 0 ? "e-" : "e+");
        int a = Math.abs(exp);
        if (a < 10) {
            sb.append('0');
        }
        sb.append(a);
        return sb.toString();
    }

    // The first n digits, rounded half-up on the rest; one digit longer
    // when the rounding carries out (999 -> 1000).
    private static char[] round(String digits, int n) {
        char[] d = new char[n];
        for (int i = 0; i < n; i++) {
            d[i] = i < digits.length() ? digits.charAt(i) : '0';
        }
        if (n >= digits.length() || digits.charAt(n) < '5') {
            return d;
        }
        int i = n - 1;
        while (i >= 0 && d[i] == '9') {
            d[i] = '0';
            i--;
        }
        if (i >= 0) {
            d[i]++;
            return d;
        }
        char[] c = new char[n + 1];
        c[0] = '1';
        System.arraycopy(d, 0, c, 1, n);
        return c;
    }
}
