package java.io;

import java.util.ArrayList;

/**
 * A path name in the file system and the operations on what it names.
 * Paths are normalised as on Android: repeated separators collapse and a
 * trailing separator is dropped. Relative paths are resolved against
 * user.dir by the system calls.
 */
public class File implements Serializable, Comparable<File> {
    public static final char separatorChar = '/';
    public static final String separator = "/";
    public static final char pathSeparatorChar = ':';
    public static final String pathSeparator = ":";

    private final String path;

    public File(String pathname) {
        if (pathname == null) {
            throw new NullPointerException("pathname == null");
        }
        this.path = normalize(pathname);
    }

    public File(String parent, String child) {
        if (child == null) {
            throw new NullPointerException("child == null");
        }
        this.path = parent == null ? normalize(child) : join(normalize(parent), normalize(child));
    }

    public File(File parent, String child) {
        this(parent == null ? null : parent.path, child);
    }

    private static String join(String parent, String child) {
        if (parent.isEmpty()) {
            parent = "/"; // an empty parent is the root, as on the Java platform
        }
        if (child.isEmpty()) {
            return parent;
        }
        if (child.charAt(0) == '/') {
            child = child.substring(1);
        }
        return parent.endsWith("/") ? parent + child : parent + "/" + child;
    }

    private static String normalize(String p) {
        StringBuilder b = new StringBuilder(p.length());
        char prev = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '/' && prev == '/') {
                continue;
            }
            b.append(c);
            prev = c;
        }
        if (b.length() > 1 && b.charAt(b.length() - 1) == '/') {
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }

    public String getName() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public String getPath() {
        return path;
    }

    public String getParent() {
        int i = path.lastIndexOf('/');
        if (i < 0 || path.length() == 1) {
            return null;
        }
        return i == 0 ? "/" : path.substring(0, i);
    }

    public File getParentFile() {
        String p = getParent();
        return p == null ? null : new File(p);
    }

    public boolean isAbsolute() {
        return path.startsWith("/");
    }

    public String getAbsolutePath() {
        if (isAbsolute()) {
            return path;
        }
        String dir = System.getProperty("user.dir");
        return path.isEmpty() ? dir : join(dir, path);
    }

    public File getAbsoluteFile() {
        return new File(getAbsolutePath());
    }

    public String getCanonicalPath() throws IOException {
        return VMFiles.canonicalize(getAbsolutePath());
    }

    public File getCanonicalFile() throws IOException {
        return new File(getCanonicalPath());
    }

    public boolean exists() {
        return VMFiles.stat(path) != 0;
    }

    public boolean isFile() {
        return VMFiles.stat(path) == 1;
    }

    public boolean isDirectory() {
        return VMFiles.stat(path) == 2;
    }

    public boolean isHidden() {
        return getName().startsWith(".");
    }

    public long length() {
        return VMFiles.length(path);
    }

    public long lastModified() {
        return VMFiles.lastModified(path);
    }

    public boolean canRead() {
        return VMFiles.access(path, 4);
    }

    public boolean canWrite() {
        return VMFiles.access(path, 2);
    }

    public boolean canExecute() {
        return VMFiles.access(path, 1);
    }

    public boolean delete() {
        return VMFiles.delete(path);
    }

    public void deleteOnExit() {
        VMFiles.deleteOnExit(getAbsolutePath());
    }

    public boolean createNewFile() throws IOException {
        return VMFiles.createNew(path);
    }

    public boolean mkdir() {
        return VMFiles.mkdir(path);
    }

    public boolean mkdirs() {
        if (exists()) {
            return false;
        }
        if (mkdir()) {
            return true;
        }
        File parent = getParentFile();
        return parent != null && (parent.mkdirs() || parent.exists()) && mkdir();
    }

    public boolean renameTo(File dest) {
        return VMFiles.rename(path, dest.path);
    }

    public String[] list() {
        return VMFiles.list(path);
    }

    public String[] list(FilenameFilter filter) {
        String[] names = list();
        if (names == null || filter == null) {
            return names;
        }
        ArrayList<String> kept = new ArrayList<String>();
        for (String n : names) {
            if (filter.accept(this, n)) {
                kept.add(n);
            }
        }
        return kept.toArray(new String[kept.size()]);
    }

    public File[] listFiles() {
        return listFiles((FileFilter) null);
    }

    public File[] listFiles(FileFilter filter) {
        String[] names = list();
        if (names == null) {
            return null;
        }
        ArrayList<File> files = new ArrayList<File>();
        for (String n : names) {
            File f = new File(this, n);
            if (filter == null || filter.accept(f)) {
                files.add(f);
            }
        }
        return files.toArray(new File[files.size()]);
    }

    public File[] listFiles(FilenameFilter filter) {
        String[] names = list(filter);
        if (names == null) {
            return null;
        }
        File[] files = new File[names.length];
        for (int i = 0; i < names.length; i++) {
            files[i] = new File(this, names[i]);
        }
        return files;
    }

    private static int counter = (int) (System.nanoTime() & 0x7fffffff);

    public static File createTempFile(String prefix, String suffix) throws IOException {
        return createTempFile(prefix, suffix, null);
    }

    public static File createTempFile(String prefix, String suffix, File directory) throws IOException {
        if (prefix.length() < 3) {
            throw new IllegalArgumentException("prefix must be at least 3 characters");
        }
        if (suffix == null) {
            suffix = ".tmp";
        }
        File dir = directory != null ? directory : new File(System.getProperty("java.io.tmpdir", "/tmp"));
        while (true) {
            int n;
            synchronized (File.class) {
                n = counter++;
            }
            File f = new File(dir, prefix + (n & 0x7fffffff) + suffix);
            if (VMFiles.createNew(f.path)) {
                return f;
            }
        }
    }

    public int compareTo(File other) {
        return path.compareTo(other.path);
    }

    public boolean equals(Object o) {
        return o instanceof File && path.equals(((File) o).path);
    }

    public int hashCode() {
        return path.hashCode() ^ 1234321;
    }

    public String toString() {
        return path;
    }
}
