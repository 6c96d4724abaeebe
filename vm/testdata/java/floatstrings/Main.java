import java.util.Random;

// Double.toString and Float.toString on edge values and on pseudo-random
// bit patterns and decimal-looking values: the Java platform's digits are
// not always the shortest ones, and the VM must print the same.
public class Main {
    public static void main(String[] args) {
        double[] doubles = {
            Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 1.0E23, 2.0E23, 9999999.999999998,
            1.0E7, 9999999.0, 0.001, 9.999999999999998E-4, 1.0E-3 * 0.5, 100.0, 1.0E-5, 0.1 + 0.2,
            Math.PI, Math.E, 1.0 / 3, 2.82879384806159E17, 1.387364135037754E18, 4.35E-322,
            Long.MAX_VALUE, (double) (1L << 62), 123456789012345678.0, 5.0E-324 * 3, 1.0E21, 1.0E-7,
        };
        for (double d : doubles) {
            System.out.println(d + " " + (-d));
        }
        float[] floats = {
            Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, 1.0E10f, 1.0E7f, 9999999.0f, 0.001f,
            3.4028235E38f, 1.17549435E-38f, 0.1f, 1.0f / 3, 16777216.0f, 5.19665944E14f, 4.8766792E7f,
        };
        for (float f : floats) {
            System.out.println(f + " " + (-f));
        }
        Random r = new Random(2026);
        for (int i = 0; i < 20000; i++) {
            long bits = r.nextLong();
            double d = Double.longBitsToDouble(bits);
            float f = Float.intBitsToFloat((int) bits);
            double dec = r.nextInt(1000000) / Math.pow(10, r.nextInt(15) - 4);
            System.out.println(d + " " + f + " " + dec + " " + (float) dec);
        }
    }
}
