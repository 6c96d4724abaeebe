package other;

/** A package-private class with a public constructor. */
class Pkg {
    public Pkg() {
    }
}
