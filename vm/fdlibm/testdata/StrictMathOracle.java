import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileReader;
import java.io.OutputStreamWriter;

// Reads lines "function bits [bits]" (arguments as hexadecimal IEEE 754
// bits) and prints the bits of StrictMath.function(arguments), one line
// each; NaNs are printed canonical because their payload is unspecified.
public class StrictMathOracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new FileReader(args[0]));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out), 1 << 16);
        String line;
        int lineNo = 0;
        while ((line = in.readLine()) != null) {
            lineNo++;
            String[] f = line.split(" ");
            double x = Double.longBitsToDouble(Long.parseUnsignedLong(f[1], 16));
            double y = f.length > 2 ? Double.longBitsToDouble(Long.parseUnsignedLong(f[2], 16)) : 0;
            double r;
            switch (f[0]) {
            case "sin": r = StrictMath.sin(x); break;
            case "cos": r = StrictMath.cos(x); break;
            case "tan": r = StrictMath.tan(x); break;
            case "asin": r = StrictMath.asin(x); break;
            case "acos": r = StrictMath.acos(x); break;
            case "atan": r = StrictMath.atan(x); break;
            case "atan2": r = StrictMath.atan2(x, y); break;
            case "exp": r = StrictMath.exp(x); break;
            case "expm1": r = StrictMath.expm1(x); break;
            case "log": r = StrictMath.log(x); break;
            case "log10": r = StrictMath.log10(x); break;
            case "log1p": r = StrictMath.log1p(x); break;
            case "cbrt": r = StrictMath.cbrt(x); break;
            case "sinh": r = StrictMath.sinh(x); break;
            case "cosh": r = StrictMath.cosh(x); break;
            case "tanh": r = StrictMath.tanh(x); break;
            case "pow": r = StrictMath.pow(x, y); break;
            case "hypot": r = StrictMath.hypot(x, y); break;
            default: throw new IllegalArgumentException("line " + lineNo + ": unknown function " + f[0]);
            }
            out.write(Long.toHexString(Double.doubleToLongBits(r)));
            out.write('\n');
        }
        out.flush();
    }
}
