package deltablue;

/** A constraint's strength; a lower level number is stronger. */
final class Strength {
    static final Strength REQUIRED = new Strength(0, "required");
    static final Strength STRONG_PREFERRED = new Strength(1, "strongPreferred");
    static final Strength PREFERRED = new Strength(2, "preferred");
    static final Strength STRONG_DEFAULT = new Strength(3, "strongDefault");
    static final Strength NORMAL = new Strength(4, "normal");
    static final Strength WEAK_DEFAULT = new Strength(5, "weakDefault");
    static final Strength WEAKEST = new Strength(6, "weakest");

    private static final Strength[] BY_LEVEL = {
        REQUIRED, STRONG_PREFERRED, PREFERRED, STRONG_DEFAULT, NORMAL, WEAK_DEFAULT, WEAKEST,
    };

    final int level;
    final String name;

    private Strength(int level, String name) {
        this.level = level;
        this.name = name;
    }

    static boolean stronger(Strength a, Strength b) {
        return a.level < b.level;
    }

    static boolean weaker(Strength a, Strength b) {
        return a.level > b.level;
    }

    static Strength weakestOf(Strength a, Strength b) {
        return weaker(a, b) ? a : b;
    }

    Strength nextWeaker() {
        return level + 1 < BY_LEVEL.length ? BY_LEVEL[level + 1] : WEAKEST;
    }
}
