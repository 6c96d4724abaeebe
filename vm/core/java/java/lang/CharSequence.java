package java.lang;

/** A readable sequence of chars. */
public interface CharSequence {
    int length();

    char charAt(int index);

    CharSequence subSequence(int start, int end);

    String toString();
}
