package java.io;

/** Chooses names for File.list. */
public interface FilenameFilter {
    boolean accept(File dir, String name);
}
