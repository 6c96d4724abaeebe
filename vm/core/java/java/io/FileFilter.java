package java.io;

/** Chooses files for File.listFiles. */
public interface FileFilter {
    boolean accept(File pathname);
}
