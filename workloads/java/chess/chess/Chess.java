package chess;

import java.util.ArrayList;

/**
 * Chess-like workload that churns short-lived Point and Move objects:
 * perft node counts from the initial position to depth d, then a game of
 * 10 plies in which each side picks its move by alpha-beta negamax of depth
 * d - 1 (at least 1). Argument: d (default 3). Prints the perft counts, every move of the
 * game with its score and node count, and the total nodes searched.
 */
public final class Chess {
    static final int WIN = 1000000;

    private final Board board;
    private long nodes;

    private Chess(Board board) {
        this.board = board;
    }

    /** Counts the leaf nodes depth plies below the current position. */
    long perft(int depth) {
        if (depth == 0) {
            return 1;
        }
        ArrayList<Move> ms = board.moves();
        long n = 0;
        for (int i = 0; i < ms.size(); i++) {
            Move m = ms.get(i);
            if (m.captured == Board.KING || m.captured == -Board.KING) {
                continue;
            }
            board.make(m);
            n += perft(depth - 1);
            board.unmake(m);
        }
        return n;
    }

    /** Negamax with alpha-beta pruning; scores are for the side to move. */
    int search(int depth, int alpha, int beta) {
        nodes++;
        if (depth == 0) {
            return board.side * board.evaluate();
        }
        ArrayList<Move> ms = board.moves();
        if (ms.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < ms.size(); i++) {
            int c = ms.get(i).captured;
            if (c == Board.KING || c == -Board.KING) {
                return WIN + depth;
            }
        }
        for (int i = 0; i < ms.size(); i++) {
            Move m = ms.get(i);
            board.make(m);
            int v = -search(depth - 1, -beta, -alpha);
            board.unmake(m);
            if (v >= beta) {
                return v;
            }
            if (v > alpha) {
                alpha = v;
            }
        }
        return alpha;
    }

    /** Returns the best move at depth, first of equals in generation order. */
    Move best(int depth, int[] score) {
        ArrayList<Move> ms = board.moves();
        Move best = null;
        int alpha = -WIN * 2;
        for (int i = 0; i < ms.size(); i++) {
            Move m = ms.get(i);
            board.make(m);
            int v = -search(depth - 1, -WIN * 2, -alpha);
            board.unmake(m);
            if (best == null || v > alpha) {
                best = m;
                alpha = v;
            }
        }
        score[0] = alpha;
        return best;
    }

    public static void main(String[] args) {
        int depth = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Chess c = new Chess(Board.initial());
        for (int d = 1; d <= depth; d++) {
            System.out.println("perft(" + d + ") = " + c.perft(d));
        }
        int searchDepth = Math.max(1, depth - 1);
        int[] score = new int[1];
        StringBuilder game = new StringBuilder();
        for (int ply = 0; ply < 10; ply++) {
            long before = c.nodes;
            Move m = c.best(searchDepth, score);
            if (m == null) {
                break;
            }
            c.board.make(m);
            System.out.println("ply " + (ply + 1) + ": " + m + " score=" + score[0] + " nodes=" + (c.nodes - before));
            if (ply > 0) {
                game.append(' ');
            }
            game.append(m);
        }
        System.out.println("game: " + game.toString());
        System.out.println("total nodes=" + c.nodes + " final eval=" + c.board.evaluate());
    }
}
