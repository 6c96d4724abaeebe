package chess;

/** An immutable board coordinate (file x, rank y); moves create many. */
final class Point {
    final int x;
    final int y;

    Point(int x, int y) {
        this.x = x;
        this.y = y;
    }

    Point plus(Point d) {
        return new Point(x + d.x, y + d.y);
    }

    boolean onBoard() {
        return x >= 0 && x < 8 && y >= 0 && y < 8;
    }

    int index() {
        return y * 8 + x;
    }

    /** Distance-to-centre bonus, 0 in a corner to 6 in the middle. */
    int centrality() {
        int dx = 2 * x - 7;
        int dy = 2 * y - 7;
        return 7 - ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy)) / 2;
    }

    String name() {
        return "" + (char) ('a' + x) + (char) ('1' + y);
    }
}
