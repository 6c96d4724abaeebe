package chess;

import java.util.ArrayList;

/**
 * A chess board with pseudo-legal move generation (no castling, no en
 * passant, promotion to queen only; a side whose king was captured has lost).
 * Pieces are ints: 1..6 = pawn, knight, bishop, rook, queen, king for white,
 * negative for black, 0 for empty.
 */
final class Board {
    static final int PAWN = 1;
    static final int KNIGHT = 2;
    static final int BISHOP = 3;
    static final int ROOK = 4;
    static final int QUEEN = 5;
    static final int KING = 6;
    static final int[] VALUE = {0, 100, 320, 330, 500, 900, 20000};

    static final Point[] KNIGHT_STEPS = {
        new Point(1, 2), new Point(2, 1), new Point(2, -1), new Point(1, -2),
        new Point(-1, -2), new Point(-2, -1), new Point(-2, 1), new Point(-1, 2),
    };
    static final Point[] ROOK_DIRS = {new Point(1, 0), new Point(-1, 0), new Point(0, 1), new Point(0, -1)};
    static final Point[] BISHOP_DIRS = {new Point(1, 1), new Point(1, -1), new Point(-1, 1), new Point(-1, -1)};
    static final Point[] ALL_DIRS = {
        new Point(1, 0), new Point(-1, 0), new Point(0, 1), new Point(0, -1),
        new Point(1, 1), new Point(1, -1), new Point(-1, 1), new Point(-1, -1),
    };

    final int[] squares = new int[64];
    /** 1 when white is to move, -1 for black. */
    int side = 1;

    static Board initial() {
        Board b = new Board();
        int[] back = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
        for (int x = 0; x < 8; x++) {
            b.squares[x] = back[x];
            b.squares[8 + x] = PAWN;
            b.squares[48 + x] = -PAWN;
            b.squares[56 + x] = -back[x];
        }
        return b;
    }

    int at(Point p) {
        return squares[p.index()];
    }

    /** Returns the pseudo-legal moves of the side to move. */
    ArrayList<Move> moves() {
        ArrayList<Move> out = new ArrayList<Move>();
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                Point p = new Point(x, y);
                int piece = at(p);
                if (piece * side <= 0) {
                    continue;
                }
                switch (piece * side) {
                    case PAWN:
                        pawnMoves(p, piece, out);
                        break;
                    case KNIGHT:
                        steps(p, piece, KNIGHT_STEPS, out);
                        break;
                    case BISHOP:
                        slides(p, piece, BISHOP_DIRS, out);
                        break;
                    case ROOK:
                        slides(p, piece, ROOK_DIRS, out);
                        break;
                    case QUEEN:
                        slides(p, piece, ALL_DIRS, out);
                        break;
                    default:
                        steps(p, piece, ALL_DIRS, out);
                        break;
                }
            }
        }
        return out;
    }

    private void add(Point from, Point to, int piece, ArrayList<Move> out) {
        int promotion = 0;
        if (piece * side == PAWN && (to.y == 0 || to.y == 7)) {
            promotion = QUEEN * side;
        }
        out.add(new Move(from, to, piece, at(to), promotion));
    }

    private void pawnMoves(Point p, int piece, ArrayList<Move> out) {
        Point ahead = p.plus(new Point(0, side));
        if (ahead.onBoard() && at(ahead) == 0) {
            add(p, ahead, piece, out);
            int home = side > 0 ? 1 : 6;
            Point two = ahead.plus(new Point(0, side));
            if (p.y == home && at(two) == 0) {
                add(p, two, piece, out);
            }
        }
        for (int dx = -1; dx <= 1; dx += 2) {
            Point q = p.plus(new Point(dx, side));
            if (q.onBoard() && at(q) * side < 0) {
                add(p, q, piece, out);
            }
        }
    }

    private void steps(Point p, int piece, Point[] dirs, ArrayList<Move> out) {
        for (int i = 0; i < dirs.length; i++) {
            Point q = p.plus(dirs[i]);
            if (q.onBoard() && at(q) * side <= 0) {
                add(p, q, piece, out);
            }
        }
    }

    private void slides(Point p, int piece, Point[] dirs, ArrayList<Move> out) {
        for (int i = 0; i < dirs.length; i++) {
            Point q = p.plus(dirs[i]);
            while (q.onBoard()) {
                int t = at(q);
                if (t * side > 0) {
                    break;
                }
                add(p, q, piece, out);
                if (t != 0) {
                    break;
                }
                q = q.plus(dirs[i]);
            }
        }
    }

    void make(Move m) {
        squares[m.to.index()] = m.promotion != 0 ? m.promotion : m.piece;
        squares[m.from.index()] = 0;
        side = -side;
    }

    void unmake(Move m) {
        squares[m.from.index()] = m.piece;
        squares[m.to.index()] = m.captured;
        side = -side;
    }

    /** Material plus centralisation, from white's point of view. */
    int evaluate() {
        int score = 0;
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                Point p = new Point(x, y);
                int piece = at(p);
                if (piece == 0) {
                    continue;
                }
                int kind = piece < 0 ? -piece : piece;
                int v = VALUE[kind];
                if (kind != KING) {
                    v += 4 * p.centrality();
                }
                if (kind == PAWN) {
                    v += 3 * (piece > 0 ? y - 1 : 6 - y);
                }
                score += piece > 0 ? v : -v;
            }
        }
        return score;
    }
}
