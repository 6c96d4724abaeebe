package java.io;

/**
 * Prints text as UTF-8 to another stream, without buffering of its own.
 * Errors set a flag (checkError) instead of throwing, as in Java.
 */
public class PrintStream extends FilterOutputStream implements Appendable, Closeable {
    private final boolean autoFlush;
    private boolean trouble;
    private boolean closed;

    public PrintStream(OutputStream out) {
        this(out, false);
    }

    public PrintStream(OutputStream out, boolean autoFlush) {
        super(out);
        if (out == null) {
            throw new NullPointerException("Null output stream");
        }
        this.autoFlush = autoFlush;
    }

    public void flush() {
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                out.flush();
            } catch (IOException e) {
                trouble = true;
            }
        }
    }

    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                trouble = true;
            }
        }
    }

    public boolean checkError() {
        flush();
        return trouble;
    }

    protected void setError() {
        trouble = true;
    }

    protected void clearError() {
        trouble = false;
    }

    public void write(int b) {
        synchronized (this) {
            if (closed) {
                trouble = true;
                return;
            }
            try {
                out.write(b);
                if (b == '\n' && autoFlush) {
                    out.flush();
                }
            } catch (IOException e) {
                trouble = true;
            }
        }
    }

    public void write(byte[] buf, int off, int len) {
        synchronized (this) {
            if (closed) {
                trouble = true;
                return;
            }
            try {
                out.write(buf, off, len);
                if (autoFlush) {
                    out.flush();
                }
            } catch (IOException e) {
                trouble = true;
            }
        }
    }

    private void writeChars(char[] c, int off, int len) {
        writeString(new String(c, off, len));
    }

    // Encodes s as UTF-8 (String.getBytes) and writes it in one call.
    private void writeString(String s) {
        byte[] b = s.getBytes();
        write(b, 0, b.length);
    }

    public void print(boolean b) {
        writeString(b ? "true" : "false");
    }

    public void print(char c) {
        writeChars(new char[] {c}, 0, 1);
    }

    public void print(int i) {
        writeString(String.valueOf(i));
    }

    public void print(long l) {
        writeString(String.valueOf(l));
    }

    public void print(float f) {
        writeString(String.valueOf(f));
    }

    public void print(double d) {
        writeString(String.valueOf(d));
    }

    public void print(char[] s) {
        writeChars(s, 0, s.length);
    }

    public void print(String s) {
        writeString(s == null ? "null" : s);
    }

    public void print(Object obj) {
        writeString(String.valueOf(obj));
    }

    public void println() {
        writeString("\n");
    }

    // Each println writes its text and the newline in one write, so lines
    // from different threads do not interleave.
    public void println(boolean x) {
        writeString(String.valueOf(x) + "\n");
    }

    public void println(char x) {
        writeChars(new char[] {x, '\n'}, 0, 2);
    }

    public void println(int x) {
        writeString(String.valueOf(x) + "\n");
    }

    public void println(long x) {
        writeString(String.valueOf(x) + "\n");
    }

    public void println(float x) {
        writeString(String.valueOf(x) + "\n");
    }

    public void println(double x) {
        writeString(String.valueOf(x) + "\n");
    }

    public void println(char[] x) {
        char[] c = new char[x.length + 1];
        System.arraycopy(x, 0, c, 0, x.length);
        c[x.length] = '\n';
        writeChars(c, 0, c.length);
    }

    public void println(String x) {
        writeString((x == null ? "null" : x) + "\n");
    }

    public void println(Object x) {
        writeString(String.valueOf(x) + "\n");
    }

    /** Prints like String.format; see java.util.Formatter for what is supported. */
    public PrintStream printf(String format, Object... args) {
        return format(format, args);
    }

    public PrintStream format(String format, Object... args) {
        print(String.format(format, args));
        return this;
    }

    public PrintStream printf(java.util.Locale l, String format, Object... args) {
        return format(l, format, args);
    }

    public PrintStream format(java.util.Locale l, String format, Object... args) {
        print(String.format(l, format, args));
        return this;
    }

    public PrintStream append(CharSequence csq) {
        print(String.valueOf(csq));
        return this;
    }

    public PrintStream append(CharSequence csq, int start, int end) {
        CharSequence cs = csq == null ? "null" : csq;
        print(cs.subSequence(start, end).toString());
        return this;
    }

    public PrintStream append(char c) {
        print(c);
        return this;
    }
}
