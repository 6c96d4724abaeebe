package leak;

import java.util.ArrayList;

/**
 * ListLeak-style workload: a request loop that, besides its real work,
 * appends every request to a static "history" list that nothing ever reads
 * or trims, so all requests stay reachable for the rest of the run while
 * the short-lived temporaries of each request die young.
 *
 * <p>Argument: iterations (default 10000). Prints the history size every
 * fifth of the run and a summary with the total retained payload.
 */
public final class ListLeak {
    private ListLeak() {}

    /** One unit of work; after process it is never used again. */
    static final class Request {
        final int id;
        final int[] payload;
        final String tag;
        long result;

        Request(int id) {
            this.id = id;
            this.payload = new int[32];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = id * 31 + i;
            }
            this.tag = "req-" + id;
        }
    }

    /** The leak: written on every request, never read, never cleared. */
    static final ArrayList<Request> HISTORY = new ArrayList<Request>();

    static long process(Request r) {
        StringBuilder scratch = new StringBuilder();
        long acc = 0;
        for (int i = 0; i < r.payload.length; i++) {
            acc += (long) r.payload[i] * (i + 1);
            if ((i & 7) == 0) {
                scratch.append(r.payload[i] & 0xFF).append(',');
            }
        }
        r.result = acc + scratch.length() + r.tag.length();
        return r.result;
    }

    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 10000;
        int step = Math.max(1, iterations / 5);
        long total = 0;
        for (int i = 0; i < iterations; i++) {
            Request r = new Request(i);
            total += process(r);
            HISTORY.add(r);
            if ((i + 1) % step == 0) {
                System.out.println("iteration " + (i + 1) + ": history size=" + HISTORY.size());
            }
        }
        long retained = 0;
        for (int i = 0; i < HISTORY.size(); i++) {
            retained += HISTORY.get(i).payload.length;
        }
        System.out.println("ListLeak iterations=" + iterations + " history=" + HISTORY.size()
                + " retained_ints=" + retained + " total=" + total);
    }
}
