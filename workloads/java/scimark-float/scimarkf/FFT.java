package scimarkf;

import java.util.Random;

/**
 * SciMark-style kernel in single precision (the double kernel of package
 * scimark with every double a float, for opcost's use case): complex radix-2 FFT.
 *
 * <p>The data is n complex numbers stored interleaved (re, im) in a float
 * array. Each cycle transforms forward, then inverse (with the 1/n scaling),
 * which should give back the input. The twiddle factors come from the
 * half-angle formulas (sqrt and division only, starting from cos(pi) = -1)
 * rather than Math.sin/cos, so every operation is exactly rounded IEEE
 * arithmetic and the result is bit-identical on every VM.
 *
 * <p>Arguments: n (a power of two, default 1024), cycles (default 16).
 * Prints n, cycles, a checksum of the first forward transform, and the RMS
 * error after the round trips (scaled by 1e15 and rounded).
 */
public final class FFT {
    private FFT() {}

    /** Returns log2(n), or throws if n is not a power of two. */
    static int log2(int n) {
        int log = 0;
        for (int k = 1; k < n; k *= 2) {
            log++;
        }
        if (1 << log != n) {
            throw new IllegalArgumentException("FFT: length " + n + " is not a power of two");
        }
        return log;
    }

    /** Permutes the complex numbers in data into bit-reversed index order. */
    static void bitReverse(float[] data) {
        int n = data.length / 2;
        int j = 0;
        for (int i = 0; i < n - 1; i++) {
            if (i < j) {
                float tr = data[2 * i];
                float ti = data[2 * i + 1];
                data[2 * i] = data[2 * j];
                data[2 * i + 1] = data[2 * j + 1];
                data[2 * j] = tr;
                data[2 * j + 1] = ti;
            }
            int bit = n >> 1;
            while (bit >= 1 && (j & bit) != 0) {
                j &= ~bit;
                bit >>= 1;
            }
            j |= bit;
        }
    }

    /**
     * Transforms data in place: sign -1 is the forward transform
     * (exp(-2 pi i jk / n)), +1 the unscaled inverse.
     */
    static void transform(float[] data, int sign) {
        int n = data.length / 2;
        log2(n);
        if (n <= 1) {
            return;
        }
        bitReverse(data);
        // (c, s) = (cos, sin) of pi/span, where span is the butterfly distance.
        float c = -1.0f;
        float s = 0.0f;
        for (int span = 1; span < n; span *= 2) {
            float dr = c;
            float di = sign * s;
            float wr = 1.0f;
            float wi = 0.0f;
            for (int a = 0; a < span; a++) {
                for (int b = a; b < n; b += 2 * span) {
                    int i = 2 * b;
                    int j = 2 * (b + span);
                    float zr = wr * data[j] - wi * data[j + 1];
                    float zi = wr * data[j + 1] + wi * data[j];
                    data[j] = data[i] - zr;
                    data[j + 1] = data[i + 1] - zi;
                    data[i] += zr;
                    data[i + 1] += zi;
                }
                float t = wr * dr - wi * di;
                wi = wr * di + wi * dr;
                wr = t;
            }
            // Halve the angle: cos(x/2) = sqrt((1 + cos x) / 2),
            // sin(x/2) = sin x / (2 cos(x/2)), and sin(pi/2) = 1.
            float hc = (float) Math.sqrt((1.0f + c) / 2.0f);
            s = hc == 0.0f ? 1.0f : s / (2.0f * hc);
            c = hc;
        }
    }

    /** Forward transform. */
    public static void forward(float[] data) {
        transform(data, -1);
    }

    /** Inverse transform, scaled by 1/n so that it undoes forward. */
    public static void inverse(float[] data) {
        transform(data, 1);
        int n = data.length / 2;
        float norm = 1.0f / n;
        for (int i = 0; i < data.length; i++) {
            data[i] *= norm;
        }
    }

    /** Returns the root mean square difference of a and b. */
    static float rms(float[] a, float[] b) {
        float sum = 0.0f;
        for (int i = 0; i < a.length; i++) {
            float d = a[i] - b[i];
            sum += d * d;
        }
        return (float) Math.sqrt(sum / a.length);
    }

    public static void main(String[] args) {
        int n = Util.intArg(args, 0, 1024);
        int cycles = Util.intArg(args, 1, 16);
        Random r = new Random(101010L);
        float[] orig = Util.randomVector(2 * n, r);
        float[] data = new float[2 * n];
        System.arraycopy(orig, 0, data, 0, data.length);
        long checksum = 0;
        for (int c = 0; c < cycles; c++) {
            forward(data);
            if (c == 0) {
                float abs = 0.0f;
                for (int i = 0; i < data.length; i++) {
                    abs += Math.abs(data[i]) * ((i % 7) + 1);
                }
                checksum = Util.fixed(abs);
            }
            inverse(data);
        }
        float err = rms(orig, data);
        System.out.println("FFT n=" + n + " cycles=" + cycles + " checksum=" + checksum
                + " rms_error_e15=" + Math.round(err * 1e15) + " ok=" + (err < 1e-10));
    }
}
