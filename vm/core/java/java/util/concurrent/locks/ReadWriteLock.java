package java.util.concurrent.locks;

/** A pair of locks: any number of readers or one writer. */
public interface ReadWriteLock {
    Lock readLock();

    Lock writeLock();
}
