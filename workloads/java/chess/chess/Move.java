package chess;

/** A move of piece from one Point to another. */
final class Move {
    final Point from;
    final Point to;
    final int piece;
    final int captured;
    final int promotion;

    Move(Point from, Point to, int piece, int captured, int promotion) {
        this.from = from;
        this.to = to;
        this.piece = piece;
        this.captured = captured;
        this.promotion = promotion;
    }

    @Override
    public String toString() {
        return from.name() + to.name() + (promotion != 0 ? "q" : "");
    }
}
