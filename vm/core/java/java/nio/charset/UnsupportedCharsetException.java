package java.nio.charset;

/** Thrown for a well-formed charset name this platform does not support. */
public class UnsupportedCharsetException extends IllegalArgumentException {
    private final String charsetName;

    public UnsupportedCharsetException(String charsetName) {
        super(String.valueOf(charsetName));
        this.charsetName = charsetName;
    }

    public String getCharsetName() {
        return charsetName;
    }
}
