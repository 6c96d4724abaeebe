package java.util;

/**
 * The pseudo-random generator specified by the Java platform: a 48-bit
 * linear congruential generator (multiplier 0x5DEECE66D, addend 0xB) with
 * the documented derivations for each kind of value, so a given seed
 * yields the same sequence as on any Java VM.
 */
public class Random implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    // Distinguishes generators created in the same nanosecond.
    private static long uniquifier = 0x2545F4914F6CDD1DL;

    private long seed;
    private double nextNextGaussian;
    private boolean haveNextNextGaussian;

    public Random() {
        this(nextUniquifier() ^ System.nanoTime());
    }

    private static synchronized long nextUniquifier() {
        uniquifier = uniquifier * 6364136223846793005L + 1442695040888963407L;
        return uniquifier;
    }

    public Random(long seed) {
        this.seed = scramble(seed);
    }

    private static long scramble(long seed) {
        return (seed ^ MULTIPLIER) & MASK;
    }

    public synchronized void setSeed(long seed) {
        this.seed = scramble(seed);
        haveNextNextGaussian = false;
    }

    /** Advances the generator and returns its top bits. */
    protected synchronized int next(int bits) {
        seed = (seed * MULTIPLIER + ADDEND) & MASK;
        return (int) (seed >>> (48 - bits));
    }

    public void nextBytes(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int rnd = nextInt();
            for (int n = Math.min(bytes.length - i, 4); n > 0; n--) {
                bytes[i++] = (byte) rnd;
                rnd >>= 8;
            }
        }
    }

    public int nextInt() {
        return next(32);
    }

    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        if ((bound & -bound) == bound) {
            // A power of two: take the high bits, which are the best ones.
            return (int) ((bound * (long) next(31)) >> 31);
        }
        int bits;
        int val;
        // Reject the values of the last, incomplete multiple of bound.
        do {
            bits = next(31);
            val = bits % bound;
        } while (bits - val + (bound - 1) < 0);
        return val;
    }

    public long nextLong() {
        return ((long) next(32) << 32) + next(32);
    }

    public boolean nextBoolean() {
        return next(1) != 0;
    }

    public float nextFloat() {
        return next(24) / ((float) (1 << 24));
    }

    public double nextDouble() {
        return (((long) next(26) << 27) + next(27)) * DOUBLE_UNIT;
    }

    /** The polar method, generating values in pairs. */
    public synchronized double nextGaussian() {
        if (haveNextNextGaussian) {
            haveNextNextGaussian = false;
            return nextNextGaussian;
        }
        double v1;
        double v2;
        double s;
        do {
            v1 = 2 * nextDouble() - 1;
            v2 = 2 * nextDouble() - 1;
            s = v1 * v1 + v2 * v2;
        } while (s >= 1 || s == 0);
        double multiplier = StrictMath.sqrt(-2 * StrictMath.log(s) / s);
        nextNextGaussian = v2 * multiplier;
        haveNextNextGaussian = true;
        return v1 * multiplier;
    }
}
