package scimarkf;

import java.util.Random;

/**
 * SciMark-style kernel in single precision (the double kernel of package
 * scimark with every double a float, for opcost's use case): Monte Carlo integration.
 *
 * <p>Estimates pi as 4 times the fraction of uniform random points of the
 * unit square (java.util.Random, seed 113) that fall inside the quarter
 * circle x*x + y*y &lt;= 1.
 *
 * <p>Argument: samples (default 100000). Prints the samples, the hits and
 * the estimate.
 */
public final class MonteCarlo {
    private MonteCarlo() {}

    /** Returns how many of samples random points lie in the quarter circle. */
    public static int hits(int samples, Random r) {
        int under = 0;
        for (int i = 0; i < samples; i++) {
            float x = r.nextFloat();
            float y = r.nextFloat();
            if (x * x + y * y <= 1.0f) {
                under++;
            }
        }
        return under;
    }

    public static void main(String[] args) {
        int samples = Util.intArg(args, 0, 100000);
        int under = hits(samples, new Random(113L));
        float pi = 4.0f * under / samples;
        System.out.println("MonteCarlo samples=" + samples + " hits=" + under
                + " pi_e6=" + Util.fixed(pi));
    }
}
