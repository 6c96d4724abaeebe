package java.util.concurrent;

/** Thrown by CyclicBarrier.await when the barrier is or becomes broken. */
public class BrokenBarrierException extends Exception {
    public BrokenBarrierException() {
    }

    public BrokenBarrierException(String message) {
        super(message);
    }
}
