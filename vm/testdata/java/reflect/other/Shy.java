package other;

/** A public class whose only constructor is private. */
public class Shy {
    private Shy() {
    }
}
