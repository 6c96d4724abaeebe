package leak;

/**
 * SwapLeak-style workload: a double-buffered store that swaps in a fresh
 * version of its data on every update. Each new version keeps a link to the
 * one it replaced (meant for a one-step undo), but the link is never cut,
 * so every old version stays reachable through the chain although only the
 * newest two are ever used.
 *
 * <p>Argument: updates (default 10000). Prints the chain length every fifth
 * of the run and a summary with the retained element count.
 */
public final class SwapLeak {
    private SwapLeak() {}

    /** One version of the data. */
    static final class Version {
        final int number;
        final double[] cells;
        /** The version this one replaced: only read by undo, never cleared. */
        final Version previous;

        Version(int number, double[] cells, Version previous) {
            this.number = number;
            this.cells = cells;
            this.previous = previous;
        }
    }

    /** The store: current is live, current.previous is the undo buffer. */
    static final class Store {
        Version current;

        Store(int size) {
            current = new Version(0, new double[size], null);
        }

        /** Swaps in a new version computed from the current one. */
        void update(int k) {
            double[] old = current.cells;
            double[] next = new double[old.length];
            for (int i = 0; i < old.length; i++) {
                next[i] = old[i] * 0.5 + (double) ((k + i) % 10);
            }
            current = new Version(current.number + 1, next, current);
        }

        /** One-step undo (used now and then; it only ever needs one level). */
        void undo() {
            if (current.previous != null) {
                current = new Version(current.number + 1, current.previous.cells, current);
            }
        }

        int chainLength() {
            int n = 0;
            for (Version v = current; v != null; v = v.previous) {
                n++;
            }
            return n;
        }
    }

    public static void main(String[] args) {
        int updates = args.length > 0 ? Integer.parseInt(args[0]) : 10000;
        int step = Math.max(1, updates / 5);
        Store store = new Store(48);
        for (int k = 0; k < updates; k++) {
            store.update(k);
            if (k % 50 == 49) {
                store.undo();
            }
            if ((k + 1) % step == 0) {
                System.out.println("update " + (k + 1) + ": chain length=" + store.chainLength());
            }
        }
        long retained = 0;
        for (Version v = store.current; v != null; v = v.previous) {
            retained += v.cells.length;
        }
        double sum = 0.0;
        for (int i = 0; i < store.current.cells.length; i++) {
            sum += store.current.cells[i];
        }
        System.out.println("SwapLeak updates=" + updates + " version=" + store.current.number
                + " chain=" + store.chainLength() + " retained_doubles=" + retained
                + " sum_e6=" + Math.round(sum * 1e6));
    }
}
