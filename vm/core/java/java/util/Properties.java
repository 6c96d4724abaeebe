package java.util;

/**
 * String keys and values, with a chain of defaults consulted by
 * getProperty. There is no load or store (no streams to read or write).
 */
public class Properties extends Hashtable<Object, Object> {
    protected Properties defaults;

    public Properties() {
        this(null);
    }

    public Properties(Properties defaults) {
        this.defaults = defaults;
    }

    public synchronized Object setProperty(String key, String value) {
        return put(key, value);
    }

    /** Returns key's value if it is a String, else the defaults' value, else null. */
    public String getProperty(String key) {
        Object v = get(key);
        if (v instanceof String) {
            return (String) v;
        }
        return defaults != null ? defaults.getProperty(key) : null;
    }

    public String getProperty(String key, String defaultValue) {
        String v = getProperty(key);
        return v != null ? v : defaultValue;
    }

    public Enumeration<?> propertyNames() {
        return new Vector<String>(stringPropertyNames()).elements();
    }

    /** Returns the keys whose values are Strings, here and in the defaults. */
    public Set<String> stringPropertyNames() {
        Set<String> names = new HashSet<String>();
        collect(names);
        return Collections.unmodifiableSet(names);
    }

    private synchronized void collect(Set<String> names) {
        if (defaults != null) {
            defaults.collect(names);
        }
        for (Map.Entry<Object, Object> e : entrySet()) {
            if (e.getKey() instanceof String && e.getValue() instanceof String) {
                names.add((String) e.getKey());
            }
        }
    }
}
