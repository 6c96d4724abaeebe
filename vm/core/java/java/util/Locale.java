package java.util;

/**
 * A language and country. This library formats and maps case the same way
 * for every locale (like Locale.ROOT), so a Locale only carries its names.
 */
public final class Locale implements Cloneable, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    public static final Locale ROOT = new Locale("", "");
    public static final Locale ENGLISH = new Locale("en", "");
    public static final Locale US = new Locale("en", "US");
    public static final Locale UK = new Locale("en", "GB");
    public static final Locale GERMAN = new Locale("de", "");
    public static final Locale GERMANY = new Locale("de", "DE");
    public static final Locale FRENCH = new Locale("fr", "");
    public static final Locale FRANCE = new Locale("fr", "FR");

    private static Locale defaultLocale = US;

    private final String language;
    private final String country;

    public Locale(String language, String country) {
        this.language = language.toLowerCase();
        this.country = country.toUpperCase();
    }

    public Locale(String language) {
        this(language, "");
    }

    public static Locale getDefault() {
        return defaultLocale;
    }

    public static synchronized void setDefault(Locale newLocale) {
        if (newLocale == null) {
            throw new NullPointerException("Can't set default locale to NULL");
        }
        defaultLocale = newLocale;
    }

    public String getLanguage() {
        return language;
    }

    public String getCountry() {
        return country;
    }

    public String toString() {
        if (country.isEmpty()) {
            return language;
        }
        return language + "_" + country;
    }

    public boolean equals(Object obj) {
        if (!(obj instanceof Locale)) {
            return false;
        }
        Locale l = (Locale) obj;
        return language.equals(l.language) && country.equals(l.country);
    }

    public int hashCode() {
        return language.hashCode() * 31 + country.hashCode();
    }
}
