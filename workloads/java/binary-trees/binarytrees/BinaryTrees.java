package binarytrees;

/**
 * The binary-trees allocation benchmark (after the Computer Language
 * Benchmarks Game's description): build perfect binary trees bottom-up,
 * walk each to count its nodes, and drop it, while one long-lived tree of
 * the maximum depth stays reachable for the whole run. Almost every object
 * dies young; the collector's cost is the benchmark.
 *
 * <p>Argument: the maximum depth n (default 12; at least 6). Prints the
 * node count of a stretch tree of depth n+1, then for each depth d = 4, 6,
 * ..., n the number of trees built (2^(n-d+4)) and their total node count,
 * then the long-lived tree's count.
 */
public final class BinaryTrees {
    private static final int MIN_DEPTH = 4;

    private BinaryTrees() {}

    /** A tree node; a leaf has no children. */
    static final class Node {
        final Node left;
        final Node right;

        Node(Node left, Node right) {
            this.left = left;
            this.right = right;
        }

        /** The number of nodes in the tree rooted here. */
        int check() {
            if (left == null) {
                return 1;
            }
            return 1 + left.check() + right.check();
        }
    }

    /** A perfect tree of the given depth, children made before parents. */
    static Node bottomUp(int depth) {
        if (depth <= 0) {
            return new Node(null, null);
        }
        return new Node(bottomUp(depth - 1), bottomUp(depth - 1));
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        int maxDepth = Math.max(MIN_DEPTH + 2, n);
        int stretch = maxDepth + 1;
        System.out.println("stretch tree of depth " + stretch + "\t check: " + bottomUp(stretch).check());

        Node longLived = bottomUp(maxDepth);
        for (int d = MIN_DEPTH; d <= maxDepth; d += 2) {
            int iterations = 1 << (maxDepth - d + MIN_DEPTH);
            int check = 0;
            for (int i = 0; i < iterations; i++) {
                check += bottomUp(d).check();
            }
            System.out.println(iterations + "\t trees of depth " + d + "\t check: " + check);
        }
        System.out.println("long lived tree of depth " + maxDepth + "\t check: " + longLived.check());
    }
}
