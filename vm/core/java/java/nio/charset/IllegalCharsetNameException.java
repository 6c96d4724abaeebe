package java.nio.charset;

/** Thrown for a charset name that breaks the naming rules. */
public class IllegalCharsetNameException extends IllegalArgumentException {
    private final String charsetName;

    public IllegalCharsetNameException(String charsetName) {
        super(String.valueOf(charsetName));
        this.charsetName = charsetName;
    }

    public String getCharsetName() {
        return charsetName;
    }
}
