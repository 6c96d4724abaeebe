package coretest;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Compares parts of the core library, compiled into coretest.lang and
 * coretest.util, with the JDK's own classes on many inputs. Prints one
 * line per mismatch and exits with status 1 if there were any.
 */
public final class Oracle {
    private static int checks;
    private static int failures;
    private static final java.util.Random inputs = new java.util.Random(20261121L);

    private Oracle() {
    }

    static void check(String what, Object mine, Object jdk) {
        checks++;
        String m = String.valueOf(mine);
        String j = String.valueOf(jdk);
        if (!m.equals(j)) {
            failures++;
            if (failures <= 60) {
                System.out.println("MISMATCH " + what + ": core=" + m + " jdk=" + j);
            }
        }
    }

    interface Op {
        Object run() throws Throwable;
    }

    // The result of op, or the simple name of what it threw.
    static String outcome(Op op) {
        try {
            return "=" + op.run();
        } catch (Throwable e) {
            return "!" + e.getClass().getSimpleName();
        }
    }

    public static void main(String[] args) {
        random();
        integers();
        longs();
        smallInts();
        maths();
        floats();
        characters();
        builders();
        formats();
        regexes();
        hashMaps();
        linkedHashMaps();
        hashtables();
        treeMaps();
        lists();
        queues();
        arrays();
        misc();
        System.out.println("checks " + checks + " failures " + failures);
        System.exit(failures == 0 ? 0 : 1);
    }

    static final long[] SEEDS = {0L, 1L, 42L, -1L, 123456789L, Long.MIN_VALUE, Long.MAX_VALUE, 0x5DEECE66DL, 20261121L};
    static final int[] BOUNDS = {1, 2, 3, 7, 10, 16, 100, 1000, 1 << 30, (1 << 30) + 1, Integer.MAX_VALUE, 1 << 20, 12345};

    static void random() {
        for (long seed : SEEDS) {
            coretest.util.Random a = new coretest.util.Random(seed);
            java.util.Random b = new java.util.Random(seed);
            for (int i = 0; i < 3000; i++) {
                String w = "Random(" + seed + ")#" + i;
                switch (i % 9) {
                    case 0:
                        check(w + ".nextInt()", a.nextInt(), b.nextInt());
                        break;
                    case 1:
                        int bound = BOUNDS[(i / 9) % BOUNDS.length];
                        check(w + ".nextInt(" + bound + ")", a.nextInt(bound), b.nextInt(bound));
                        break;
                    case 2:
                        check(w + ".nextLong()", a.nextLong(), b.nextLong());
                        break;
                    case 3:
                        check(w + ".nextDouble()", Double.doubleToRawLongBits(a.nextDouble()), Double.doubleToRawLongBits(b.nextDouble()));
                        break;
                    case 4:
                        check(w + ".nextBoolean()", a.nextBoolean(), b.nextBoolean());
                        break;
                    case 5:
                        check(w + ".nextFloat()", Float.floatToRawIntBits(a.nextFloat()), Float.floatToRawIntBits(b.nextFloat()));
                        break;
                    case 6:
                        check(w + ".nextGaussian()", Double.doubleToRawLongBits(a.nextGaussian()), Double.doubleToRawLongBits(b.nextGaussian()));
                        break;
                    case 7:
                        byte[] x = new byte[i % 11];
                        byte[] y = new byte[i % 11];
                        a.nextBytes(x);
                        b.nextBytes(y);
                        check(w + ".nextBytes", java.util.Arrays.toString(x), java.util.Arrays.toString(y));
                        break;
                    default:
                        if (i % 500 == 8) {
                            a.setSeed(i);
                            b.setSeed(i);
                        }
                        check(w + ".nextInt(5)", a.nextInt(5), b.nextInt(5));
                }
            }
        }
    }

    static int[] intInputs() {
        int[] edge = {0, 1, -1, 2, -2, 7, 9, 10, 15, 16, 35, 36, 100, -100, 127, 128, -128, -129, 255, 256, 1000, 65535, 65536,
            Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1, 0x55555555, 0xAAAAAAAA, 0x80000001};
        int[] v = new int[edge.length + 3000];
        System.arraycopy(edge, 0, v, 0, edge.length);
        for (int i = edge.length; i < v.length; i++) {
            int r = inputs.nextInt();
            v[i] = (i % 3 == 0) ? r : (i % 3 == 1 ? r >> inputs.nextInt(32) : r % 1000);
        }
        return v;
    }

    static long[] longInputs() {
        long[] edge = {0, 1, -1, 10, -10, 127, 128, -128, -129, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1,
            Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFFFFFFL, 0x100000000L, -0x100000000L, 1000000000000L, 0x5555555555555555L};
        long[] v = new long[edge.length + 3000];
        System.arraycopy(edge, 0, v, 0, edge.length);
        for (int i = edge.length; i < v.length; i++) {
            long r = inputs.nextLong();
            v[i] = (i % 3 == 0) ? r : (i % 3 == 1 ? r >> inputs.nextInt(64) : r % 100000);
        }
        return v;
    }

    static final String[] STRINGS = {"", "-", "+", "+5", "-0", "0", "00012", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616", "4294967295", "4294967296", "abc", "12a", " 1", "1 ", "0x10", "#10", "010", "-0x80000000", "0X7fffffff",
        "-#1", "0x-1", "--1", "+-1", "\u0663\u0664", "\uff11\uff12", "zz", "ZZ", "-zik0zj", "zik0zk", "1y2p0ij32e8e7", "1y2p0ij32e8e8",
        "7fffffff", "80000000", "ffffffff", "-ffffffff", "1111111111111111111111111111111", "11111111111111111111111111111111", null};

    static void integers() {
        int[] v = intInputs();
        for (final int i : v) {
            check("Integer.toString(" + i + ")", coretest.lang.Integer.toString(i), Integer.toString(i));
            for (int r = 1; r <= 37; r += (i % 5 == 0 ? 1 : 7)) {
                check("Integer.toString(" + i + "," + r + ")", coretest.lang.Integer.toString(i, r), Integer.toString(i, r));
                check("Integer.toUnsignedString(" + i + "," + r + ")", coretest.lang.Integer.toUnsignedString(i, r), Integer.toUnsignedString(i, r));
                final String s = Integer.toString(i, Math.max(2, Math.min(36, r)));
                final int rr = Math.max(2, Math.min(36, r));
                check("Integer.parseInt(" + s + "," + rr + ")", coretest.lang.Integer.parseInt(s, rr), i);
            }
            check("toHexString " + i, coretest.lang.Integer.toHexString(i), Integer.toHexString(i));
            check("toOctalString " + i, coretest.lang.Integer.toOctalString(i), Integer.toOctalString(i));
            check("toBinaryString " + i, coretest.lang.Integer.toBinaryString(i), Integer.toBinaryString(i));
            check("toUnsignedString " + i, coretest.lang.Integer.toUnsignedString(i), Integer.toUnsignedString(i));
            check("bitCount " + i, coretest.lang.Integer.bitCount(i), Integer.bitCount(i));
            check("reverse " + i, coretest.lang.Integer.reverse(i), Integer.reverse(i));
            check("reverseBytes " + i, coretest.lang.Integer.reverseBytes(i), Integer.reverseBytes(i));
            check("nlz " + i, coretest.lang.Integer.numberOfLeadingZeros(i), Integer.numberOfLeadingZeros(i));
            check("ntz " + i, coretest.lang.Integer.numberOfTrailingZeros(i), Integer.numberOfTrailingZeros(i));
            check("highestOneBit " + i, coretest.lang.Integer.highestOneBit(i), Integer.highestOneBit(i));
            check("lowestOneBit " + i, coretest.lang.Integer.lowestOneBit(i), Integer.lowestOneBit(i));
            check("signum " + i, coretest.lang.Integer.signum(i), Integer.signum(i));
            check("rotateLeft " + i, coretest.lang.Integer.rotateLeft(i, i), Integer.rotateLeft(i, i));
            check("rotateRight " + i, coretest.lang.Integer.rotateRight(i, 13), Integer.rotateRight(i, 13));
            check("hashCode " + i, coretest.lang.Integer.valueOf(i).hashCode(), Integer.valueOf(i).hashCode());
            check("toUnsignedLong " + i, coretest.lang.Integer.toUnsignedLong(i), Integer.toUnsignedLong(i));
            final int d = v[(i & 0xff) % v.length];
            check("compare " + i + "," + d, coretest.lang.Integer.compare(i, d), Integer.compare(i, d));
            check("compareUnsigned " + i + "," + d, coretest.lang.Integer.compareUnsigned(i, d), Integer.compareUnsigned(i, d));
            check("divideUnsigned " + i + "," + d, outcome(new Op() {
                public Object run() {
                    return coretest.lang.Integer.divideUnsigned(i, d) + "/" + coretest.lang.Integer.remainderUnsigned(i, d);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Integer.divideUnsigned(i, d) + "/" + Integer.remainderUnsigned(i, d);
                }
            }));
        }
        check("Integer cache 127", coretest.lang.Integer.valueOf(127) == coretest.lang.Integer.valueOf(127), true);
        check("Integer cache -128", coretest.lang.Integer.valueOf(-128) == coretest.lang.Integer.valueOf(-128), true);
        check("Integer cache 128", coretest.lang.Integer.valueOf(128) == coretest.lang.Integer.valueOf(128), false);
        for (final String s : STRINGS) {
            for (int r = 1; r <= 37; r++) {
                final int radix = r;
                check("parseInt(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Integer.parseInt(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Integer.parseInt(s, radix);
                    }
                }));
                check("parseUnsignedInt(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Integer.parseUnsignedInt(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Integer.parseUnsignedInt(s, radix);
                    }
                }));
            }
            check("Integer.decode(" + s + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Integer.decode(s);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Integer.decode(s);
                }
            }));
        }
    }

    static void longs() {
        long[] v = longInputs();
        for (final long i : v) {
            check("Long.toString(" + i + ")", coretest.lang.Long.toString(i), Long.toString(i));
            for (int r = 1; r <= 37; r += (i % 5 == 0 ? 1 : 7)) {
                check("Long.toString(" + i + "," + r + ")", coretest.lang.Long.toString(i, r), Long.toString(i, r));
                check("Long.toUnsignedString(" + i + "," + r + ")", coretest.lang.Long.toUnsignedString(i, r), Long.toUnsignedString(i, r));
                int rr = Math.max(2, Math.min(36, r));
                check("Long.parseLong(" + i + "," + rr + ")", coretest.lang.Long.parseLong(Long.toString(i, rr), rr), i);
                check("Long.parseUnsignedLong(" + i + "," + rr + ")", coretest.lang.Long.parseUnsignedLong(Long.toUnsignedString(i, rr), rr), i);
            }
            check("Long.toHexString " + i, coretest.lang.Long.toHexString(i), Long.toHexString(i));
            check("Long.toOctalString " + i, coretest.lang.Long.toOctalString(i), Long.toOctalString(i));
            check("Long.toBinaryString " + i, coretest.lang.Long.toBinaryString(i), Long.toBinaryString(i));
            check("Long.bitCount " + i, coretest.lang.Long.bitCount(i), Long.bitCount(i));
            check("Long.reverse " + i, coretest.lang.Long.reverse(i), Long.reverse(i));
            check("Long.reverseBytes " + i, coretest.lang.Long.reverseBytes(i), Long.reverseBytes(i));
            check("Long.nlz " + i, coretest.lang.Long.numberOfLeadingZeros(i), Long.numberOfLeadingZeros(i));
            check("Long.ntz " + i, coretest.lang.Long.numberOfTrailingZeros(i), Long.numberOfTrailingZeros(i));
            check("Long.highestOneBit " + i, coretest.lang.Long.highestOneBit(i), Long.highestOneBit(i));
            check("Long.signum " + i, coretest.lang.Long.signum(i), Long.signum(i));
            check("Long.rotateLeft " + i, coretest.lang.Long.rotateLeft(i, (int) i), Long.rotateLeft(i, (int) i));
            check("Long.hashCode " + i, coretest.lang.Long.valueOf(i).hashCode(), Long.valueOf(i).hashCode());
            final long d = v[(int) ((i & 0xff) % v.length)];
            check("Long.compareUnsigned " + i + "," + d, coretest.lang.Long.compareUnsigned(i, d), Long.compareUnsigned(i, d));
            check("Long.divideUnsigned " + i + "," + d, outcome(new Op() {
                public Object run() {
                    return coretest.lang.Long.divideUnsigned(i, d) + "/" + coretest.lang.Long.remainderUnsigned(i, d);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Long.divideUnsigned(i, d) + "/" + Long.remainderUnsigned(i, d);
                }
            }));
        }
        check("Long cache 127", coretest.lang.Long.valueOf(127) == coretest.lang.Long.valueOf(127), true);
        for (final String s : STRINGS) {
            for (int r = 1; r <= 37; r++) {
                final int radix = r;
                check("parseLong(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Long.parseLong(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Long.parseLong(s, radix);
                    }
                }));
                check("parseUnsignedLong(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Long.parseUnsignedLong(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Long.parseUnsignedLong(s, radix);
                    }
                }));
            }
            check("Long.decode(" + s + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Long.decode(s);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Long.decode(s);
                }
            }));
        }
    }

    static void smallInts() {
        for (final String s : STRINGS) {
            for (int r = 2; r <= 36; r += 2) {
                final int radix = r;
                check("parseShort(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Short.parseShort(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Short.parseShort(s, radix);
                    }
                }));
                check("parseByte(" + s + "," + r + ")", outcome(new Op() {
                    public Object run() {
                        return coretest.lang.Byte.parseByte(s, radix);
                    }
                }), outcome(new Op() {
                    public Object run() {
                        return Byte.parseByte(s, radix);
                    }
                }));
            }
        }
        for (int i = -40000; i <= 40000; i += 7) {
            short s = (short) i;
            byte b = (byte) i;
            check("Short.toString " + s, coretest.lang.Short.toString(s), Short.toString(s));
            check("Short.reverseBytes " + s, coretest.lang.Short.reverseBytes(s), Short.reverseBytes(s));
            check("Short.toUnsignedInt " + s, coretest.lang.Short.toUnsignedInt(s), Short.toUnsignedInt(s));
            check("Byte.toUnsignedInt " + b, coretest.lang.Byte.toUnsignedInt(b), Byte.toUnsignedInt(b));
            check("Short.compare " + s, coretest.lang.Short.compare(s, (short) 77), Short.compare(s, (short) 77));
        }
        for (String s : new String[] {"true", "TRUE", "True", "false", "yes", "", null}) {
            check("parseBoolean " + s, coretest.lang.Boolean.parseBoolean(s), Boolean.parseBoolean(s));
        }
        check("Boolean.hashCode", coretest.lang.Boolean.hashCode(true) + "," + coretest.lang.Boolean.hashCode(false), Boolean.hashCode(true) + "," + Boolean.hashCode(false));
        check("Boolean.compare", coretest.lang.Boolean.compare(true, false), Boolean.compare(true, false));
    }

    static double[] doubleInputs() {
        double[] edge = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.5000000000000001,
            4503599627370495.5, 4503599627370496.0, 4503599627370497.0, -4503599627370497.0, 9007199254740993.0, 1e19, -1e19,
            9.223372036854776E18, -9.223372036854776E18, 1e300, -1e300, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
            -Double.MIN_VALUE, Double.MIN_NORMAL, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2147483647.5,
            -2147483648.5, 8388608.5, 8388609.0, 16777217.0, 0.1, -0.1, 3.0, -3.0, 1e-310};
        double[] v = new double[edge.length + 3000];
        System.arraycopy(edge, 0, v, 0, edge.length);
        for (int i = edge.length; i < v.length; i++) {
            switch (i % 4) {
                case 0:
                    v[i] = Double.longBitsToDouble(inputs.nextLong());
                    break;
                case 1:
                    v[i] = (inputs.nextDouble() - 0.5) * 1000;
                    break;
                case 2:
                    v[i] = inputs.nextInt(2000) / 4.0 - 250;
                    break;
                default:
                    v[i] = inputs.nextGaussian() * Math.pow(10, inputs.nextInt(40) - 20);
            }
        }
        return v;
    }

    static void maths() {
        double[] v = doubleInputs();
        for (int k = 0; k < v.length; k++) {
            final double x = v[k];
            final double y = v[(k * 7 + 3) % v.length];
            final float f = (float) x;
            final float g = (float) y;
            check("round(" + x + ")", coretest.lang.Math.round(x), Math.round(x));
            check("round(" + f + "f)", coretest.lang.Math.round(f), Math.round(f));
            check("abs(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.abs(x)), Double.doubleToRawLongBits(Math.abs(x)));
            check("absf(" + f + ")", Float.floatToRawIntBits(coretest.lang.Math.abs(f)), Float.floatToRawIntBits(Math.abs(f)));
            check("max(" + x + "," + y + ")", Double.doubleToRawLongBits(coretest.lang.Math.max(x, y)), Double.doubleToRawLongBits(Math.max(x, y)));
            check("min(" + x + "," + y + ")", Double.doubleToRawLongBits(coretest.lang.Math.min(x, y)), Double.doubleToRawLongBits(Math.min(x, y)));
            check("maxf(" + f + "," + g + ")", Float.floatToRawIntBits(coretest.lang.Math.max(f, g)), Float.floatToRawIntBits(Math.max(f, g)));
            check("minf(" + f + "," + g + ")", Float.floatToRawIntBits(coretest.lang.Math.min(f, g)), Float.floatToRawIntBits(Math.min(f, g)));
            check("signum(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.signum(x)), Double.doubleToRawLongBits(Math.signum(x)));
            check("signumf(" + f + ")", Float.floatToRawIntBits(coretest.lang.Math.signum(f)), Float.floatToRawIntBits(Math.signum(f)));
            check("copySign(" + x + "," + y + ")", Double.doubleToRawLongBits(coretest.lang.Math.copySign(x, y)), Double.doubleToRawLongBits(Math.copySign(x, y)));
            check("ulp(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.ulp(x)), Double.doubleToRawLongBits(Math.ulp(x)));
            check("ulpf(" + f + ")", Float.floatToRawIntBits(coretest.lang.Math.ulp(f)), Float.floatToRawIntBits(Math.ulp(f)));
            check("nextUp(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.nextUp(x)), Double.doubleToRawLongBits(Math.nextUp(x)));
            check("nextDown(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.nextDown(x)), Double.doubleToRawLongBits(Math.nextDown(x)));
            check("getExponent(" + x + ")", coretest.lang.Math.getExponent(x), Math.getExponent(x));
            check("getExponentf(" + f + ")", coretest.lang.Math.getExponent(f), Math.getExponent(f));
            // Java 8 formulas (later JDKs multiply by a constant).
            check("toRadians(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.toRadians(x)), Double.doubleToRawLongBits(x / 180.0 * Math.PI));
            check("toDegrees(" + x + ")", Double.doubleToRawLongBits(coretest.lang.Math.toDegrees(x)), Double.doubleToRawLongBits(x * 180.0 / Math.PI));
        }
        int[] iv = intInputs();
        for (int k = 0; k < iv.length; k++) {
            final int a = iv[k];
            final int b = iv[(k * 13 + 5) % iv.length];
            check("floorDiv(" + a + "," + b + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.floorDiv(a, b) + "," + coretest.lang.Math.floorMod(a, b);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Math.floorDiv(a, b) + "," + Math.floorMod(a, b);
                }
            }));
            check("exact(" + a + "," + b + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.addExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.subtractExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.multiplyExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.negateExact(a);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Math.addExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.subtractExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.multiplyExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.negateExact(a);
                }
            }));
            check("abs/max/min int " + a + "," + b, coretest.lang.Math.abs(a) + "," + coretest.lang.Math.max(a, b) + "," + coretest.lang.Math.min(a, b),
                Math.abs(a) + "," + Math.max(a, b) + "," + Math.min(a, b));
        }
        long[] lv = longInputs();
        for (int k = 0; k < lv.length; k++) {
            final long a = lv[k];
            final long b = lv[(k * 13 + 5) % lv.length];
            check("floorDivL(" + a + "," + b + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.floorDiv(a, b) + "," + coretest.lang.Math.floorMod(a, b);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Math.floorDiv(a, b) + "," + Math.floorMod(a, b);
                }
            }));
            check("exactL(" + a + "," + b + ")", outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.addExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.subtractExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.multiplyExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.toIntExact(a);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Math.addExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.subtractExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.multiplyExact(a, b);
                }
            }) + outcome(new Op() {
                public Object run() {
                    return Math.toIntExact(a);
                }
            }));
        }
        long[][] mul = {{-1, Long.MIN_VALUE}, {Long.MIN_VALUE, -1}, {Long.MIN_VALUE, 1}, {3037000500L, 3037000500L}, {-3037000500L, 3037000500L}, {0, Long.MIN_VALUE}};
        for (final long[] p : mul) {
            check("multiplyExact " + p[0] + "*" + p[1], outcome(new Op() {
                public Object run() {
                    return coretest.lang.Math.multiplyExact(p[0], p[1]);
                }
            }), outcome(new Op() {
                public Object run() {
                    return Math.multiplyExact(p[0], p[1]);
                }
            }));
        }
    }

    static void floats() {
        double[] v = doubleInputs();
        for (int k = 0; k < v.length; k++) {
            double x = v[k];
            double y = v[(k * 11 + 1) % v.length];
            float f = (float) x;
            float g = (float) y;
            check("Double.compare(" + x + "," + y + ")", coretest.lang.Double.compare(x, y), Double.compare(x, y));
            check("Double.compare(" + x + "," + x + ")", coretest.lang.Double.compare(x, x), Double.compare(x, x));
            check("Float.compare(" + f + "," + g + ")", coretest.lang.Float.compare(f, g), Float.compare(f, g));
            check("Double.hashCode(" + x + ")", coretest.lang.Double.hashCode(x), Double.hashCode(x));
            check("Float.hashCode(" + f + ")", coretest.lang.Float.hashCode(f), Float.hashCode(f));
            check("Double.equals(" + x + "," + y + ")", new coretest.lang.Double(x).equals(new coretest.lang.Double(y)), Double.valueOf(x).equals(Double.valueOf(y)));
            check("Double.doubleToLongBits(" + x + ")", coretest.lang.Double.doubleToLongBits(x), Double.doubleToLongBits(x));
            check("Float.floatToIntBits(" + f + ")", coretest.lang.Float.floatToIntBits(f), Float.floatToIntBits(f));
            check("Double.isFinite(" + x + ")", coretest.lang.Double.isFinite(x) + "," + coretest.lang.Double.isInfinite(x) + "," + coretest.lang.Double.isNaN(x),
                Double.isFinite(x) + "," + Double.isInfinite(x) + "," + Double.isNaN(x));
            check("Float.isFinite(" + f + ")", coretest.lang.Float.isFinite(f) + "," + coretest.lang.Float.isInfinite(f), Float.isFinite(f) + "," + Float.isInfinite(f));
            check("Double.intValue(" + x + ")", new coretest.lang.Double(x).intValue() + "," + new coretest.lang.Double(x).longValue(), Double.valueOf(x).intValue() + "," + Double.valueOf(x).longValue());
        }
        check("Double constants", coretest.lang.Double.MAX_VALUE + " " + coretest.lang.Double.MIN_VALUE + " " + coretest.lang.Double.MIN_NORMAL + " " + coretest.lang.Double.NaN,
            Double.MAX_VALUE + " " + Double.MIN_VALUE + " " + Double.MIN_NORMAL + " " + Double.NaN);
        check("Float constants", coretest.lang.Float.MAX_VALUE + " " + coretest.lang.Float.MIN_VALUE + " " + coretest.lang.Float.MIN_NORMAL,
            Float.MAX_VALUE + " " + Float.MIN_VALUE + " " + Float.MIN_NORMAL);
        check("Float NaN bits", coretest.lang.Float.floatToIntBits(Float.intBitsToFloat(0x7fc12345)), Float.floatToIntBits(Float.intBitsToFloat(0x7fc12345)));
    }

    static void characters() {
        int beyond = 0;
        for (int c = 0; c <= 0xffff; c++) {
            char ch = (char) c;
            String mine = coretest.lang.Character.isDigit(ch) + " " + coretest.lang.Character.isLetter(ch) + " "
                + coretest.lang.Character.isLetterOrDigit(ch) + " " + coretest.lang.Character.isWhitespace(ch) + " "
                + coretest.lang.Character.isSpaceChar(ch) + " " + coretest.lang.Character.isUpperCase(ch) + " "
                + coretest.lang.Character.isLowerCase(ch) + " " + (int) coretest.lang.Character.toUpperCase(ch) + " "
                + (int) coretest.lang.Character.toLowerCase(ch) + " " + coretest.lang.Character.digit(ch, 36) + " "
                + coretest.lang.Character.digit(ch, 10) + " " + coretest.lang.Character.isISOControl(ch) + " "
                + coretest.lang.Character.isJavaIdentifierStart(ch) + " " + coretest.lang.Character.isJavaIdentifierPart(ch) + " "
                + coretest.lang.Character.isSurrogate(ch) + " " + coretest.lang.Character.isHighSurrogate(ch);
            String jdk = Character.isDigit(ch) + " " + Character.isLetter(ch) + " " + Character.isLetterOrDigit(ch) + " "
                + Character.isWhitespace(ch) + " " + Character.isSpaceChar(ch) + " " + Character.isUpperCase(ch) + " "
                + Character.isLowerCase(ch) + " " + (int) Character.toUpperCase(ch) + " " + (int) Character.toLowerCase(ch) + " "
                + Character.digit(ch, 36) + " " + Character.digit(ch, 10) + " " + Character.isISOControl(ch) + " "
                + Character.isJavaIdentifierStart(ch) + " " + Character.isJavaIdentifierPart(ch) + " "
                + Character.isSurrogate(ch) + " " + Character.isHighSurrogate(ch);
            if (c < 0x100) {
                check("Character " + Integer.toHexString(c), mine, jdk);
            } else if (!mine.equals(jdk)) {
                beyond++;
            }
        }
        System.out.println("INFO Character: " + beyond + " of 65280 chars beyond Latin-1 classify differently from the JDK (best effort there)");
        for (int r = 0; r <= 37; r++) {
            for (int d = -1; d <= 37; d++) {
                check("forDigit(" + d + "," + r + ")", (int) coretest.lang.Character.forDigit(d, r), (int) Character.forDigit(d, r));
            }
        }
        for (int cp : new int[] {0x10000, 0x1F600, 0x10FFFF, 0xFFFF, 0x41}) {
            check("toChars " + cp, new String(coretest.lang.Character.toChars(cp)), new String(Character.toChars(cp)));
            char[] pair = Character.toChars(cp);
            if (pair.length == 2) {
                check("toCodePoint " + cp, coretest.lang.Character.toCodePoint(pair[0], pair[1]), cp);
            }
        }
    }

    static void format(final String fmt, final Object... args) {
        check("format(" + fmt + ", " + java.util.Arrays.toString(args) + ")", outcome(new Op() {
            public Object run() {
                return new coretest.util.Formatter().format(fmt, args).toString();
            }
        }), outcome(new Op() {
            public Object run() {
                return String.format(java.util.Locale.ROOT, fmt, args);
            }
        }));
    }

    static void formats() {
        String[] floatFormats = {"%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.10f", "%e", "%.0e", "%.3e", "%12.4f|", "%-12.2f|", "%+.2f",
            "%(.2f", "%,.2f", "%012.3f", "% .1f", "%E", "%#.0f", "%,f", "%-+10.1e|"};
        double[] v = doubleInputs();
        for (int k = 0; k < v.length; k += 3) {
            for (String f : floatFormats) {
                format(f, v[k]);
            }
            format("%.2f %e", (float) v[k], (float) v[k]);
        }
        String[] intFormats = {"%d", "%5d|", "%-5d|", "%05d", "%x", "%X", "%o", "%#x", "%#o", "%,d", "%+d", "% d", "%(d", "%08X", "%,012d", "%s", "%10s|", "%.3s"};
        int[] iv = intInputs();
        for (int k = 0; k < 600; k++) {
            for (String f : intFormats) {
                format(f, iv[k]);
                format(f, (long) iv[k] * 3000000019L);
            }
            format("%x %o %d", (short) iv[k], (byte) iv[k], (byte) iv[k]);
        }
        Object[] objs = {null, "text", 'c', true, false, 42, 2.5, new java.util.ArrayList<Integer>(java.util.Arrays.asList(1, 2))};
        String[] objFormats = {"%s", "%S", "%10s|", "%-10s|", "%.2s", "%b", "%B", "%h", "%c", "%d", "%x", "%f"};
        for (Object o : objs) {
            for (String f : objFormats) {
                if (f.equals("%h") && o instanceof java.util.ArrayList) {
                    continue; // identity-free but library-specific hash
                }
                format(f, o);
            }
        }
        format("%c%c", 65, 0x1F600);
        format("%2$s %1$s %<s %s %s", "a", "b");
        format("100%% done%n");
        format("%s %s", "only one");
        format("%q", 1);
        format("%", 1);
        format("[%5%]");
        format("%-3c|%3b|", 'x', null);
    }

    static final String[] PATTERNS = {"\\s+", "\\s*,\\s*", ",", "a|b", "(a|ab)(c|bcd)(d*)", "[a-z]+", "[^a-z]+", "\\d+",
        "(\\d+)-(\\d+)", "x*", "a*?", "(a*)*", "(a|b)*c", "^a", "b$", "\\bfoo\\b", "\\B", "", ".", ".*", ".+?", "a{2}",
        "a{2,}", "a{1,3}?", "(ab){2,3}", "[\\w.]+@[\\w.]+", "\\W", "[a\\-z]", "[]a]", "[\\[\\]]", "\\Q.*\\E", "\\.",
        "\\t", "(?:ab|cd)+", "((a)|(b))+", "(a?)+", "(a+|b)*", "\\x41", "\\u0042", "[0-9a-fA-F]{2}", "\\|", "(|a)+",
        "a||b", "^$", "$", "^", "[abc]?b", "(.)(.)", "\\S+", "(a?){3}", "(a|b)*?b", "[\\s\\d]+", "[^\\s,]+", "o{0}",
        "\\Q.\\E+", "(x)?y", "[a-c[x-z]]+", "a.c", "\\r?\\n", "\\.?",
        "(", ")", "[", "*a", "a{", "a{2,1}", "[b-a]", "\\", "a**", "{1}"};
    static final String[] SUBJECTS = {"", "a", "ab", "aab", "abc", "a,b,,c,,", " hello   world  ", "foo bar foobar barfoo",
        "12-34 56-7", "xyz@example.com, a.b@c.d", "aaaa", "abcbcd", "\tx\ny\r\n", "[]]a-z", ".*.*", "A B\u00e9", "a|b|c",
        ",a,,b,", "bab", "xyzzy y", "AB0f9Z"};

    static void regexes() {
        for (final String p : PATTERNS) {
            for (final String s : SUBJECTS) {
                for (final int limit : new int[] {0, -1, 1, 2, 3}) {
                    check("split(" + p + "," + s + "," + limit + ")", outcome(new Op() {
                        public Object run() {
                            return java.util.Arrays.toString(coretest.util.regex.Pattern.compile(p).split(s, limit));
                        }
                    }), outcome(new Op() {
                        public Object run() {
                            return java.util.Arrays.toString(java.util.regex.Pattern.compile(p).split(s, limit));
                        }
                    }));
                }
                check("find(" + p + "," + s + ")", outcome(new Op() {
                    public Object run() {
                        coretest.util.regex.Matcher m = coretest.util.regex.Pattern.compile(p).matcher(s);
                        StringBuilder sb = new StringBuilder();
                        while (m.find()) {
                            for (int g = 0; g <= m.groupCount(); g++) {
                                sb.append(m.start(g)).append('-').append(m.end(g)).append(':').append(m.group(g)).append(' ');
                            }
                            sb.append('|');
                        }
                        sb.append(m.pattern().matcher(s).matches()).append(m.pattern().matcher(s).lookingAt());
                        String r = m.groupCount() > 0 ? "<$1>" : "<$0>";
                        sb.append(m.replaceAll(r)).append('/').append(m.replaceFirst("\\$[$0]"));
                        return sb;
                    }
                }), outcome(new Op() {
                    public Object run() {
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile(p).matcher(s);
                        StringBuilder sb = new StringBuilder();
                        while (m.find()) {
                            for (int g = 0; g <= m.groupCount(); g++) {
                                sb.append(m.start(g)).append('-').append(m.end(g)).append(':').append(m.group(g)).append(' ');
                            }
                            sb.append('|');
                        }
                        sb.append(m.pattern().matcher(s).matches()).append(m.pattern().matcher(s).lookingAt());
                        String r = m.groupCount() > 0 ? "<$1>" : "<$0>";
                        sb.append(m.replaceAll(r)).append('/').append(m.replaceFirst("\\$[$0]"));
                        return sb;
                    }
                }));
            }
        }
        check("quote", coretest.util.regex.Pattern.quote("a\\Eb.*"), java.util.regex.Pattern.quote("a\\Eb.*"));
        check("quoteReplacement", coretest.util.regex.Matcher.quoteReplacement("$1\\x"), java.util.regex.Matcher.quoteReplacement("$1\\x"));
    }

    static void builders() {
        java.util.Random r = new java.util.Random(11);
        String[] pieces = {"", "a", "hello", "\ud83d\ude00", "\ud83d", "\ude00", "xyz\u00e9", null};
        for (int round = 0; round < 40; round++) {
            final coretest.lang.StringBuilder a = round % 2 == 0 ? new coretest.lang.StringBuilder() : new coretest.lang.StringBuilder("init");
            final StringBuilder b = round % 2 == 0 ? new StringBuilder() : new StringBuilder("init");
            final coretest.lang.StringBuffer c = new coretest.lang.StringBuffer(b.toString());
            for (int i = 0; i < 200; i++) {
                final String s = pieces[r.nextInt(pieces.length)];
                final int n = b.length();
                final int x = r.nextInt(n + 3) - 1;
                final int y = r.nextInt(n + 3) - 1;
                final int v = r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(100) - 50;
                final int op = r.nextInt(16);
                String w = "builder" + round + "#" + i + " op" + op;
                String ra = outcome(new Op() {
                    public Object run() throws Throwable {
                        return apply(a, op, s, x, y, v);
                    }
                });
                String rc = outcome(new Op() {
                    public Object run() throws Throwable {
                        return apply(c, op, s, x, y, v);
                    }
                });
                String rb = outcome(new Op() {
                    public Object run() throws Throwable {
                        return apply(b, op, s, x, y, v);
                    }
                });
                check(w + " result", ra, rb);
                check(w + " buffer result", rc, rb);
                check(w + " content", a.toString() + "|" + a.length(), b.toString() + "|" + b.length());
                check(w + " buffer content", c.toString(), b.toString());
            }
        }
    }

    // Applies one operation to a builder of either library, by reflection
    // so that the same code drives both.
    static Object apply(Object sb, int op, String s, int x, int y, int v) throws Throwable {
        Class<?> c = sb.getClass();
        Object result;
        try {
            switch (op) {
                case 0:
                    result = c.getMethod("append", String.class).invoke(sb, s);
                    break;
                case 1:
                    result = c.getMethod("append", int.class).invoke(sb, v);
                    break;
                case 2:
                    result = c.getMethod("append", long.class).invoke(sb, (long) v * 1000003L);
                    break;
                case 3:
                    result = c.getMethod("append", char.class).invoke(sb, (char) ('a' + (v & 15)));
                    break;
                case 4:
                    result = c.getMethod("append", boolean.class).invoke(sb, v > 0);
                    break;
                case 5:
                    result = c.getMethod("insert", int.class, String.class).invoke(sb, x, s);
                    break;
                case 6:
                    result = c.getMethod("delete", int.class, int.class).invoke(sb, x, y);
                    break;
                case 7:
                    result = c.getMethod("deleteCharAt", int.class).invoke(sb, x);
                    break;
                case 8:
                    result = c.getMethod("replace", int.class, int.class, String.class).invoke(sb, x, y, s == null ? "R" : s);
                    break;
                case 9:
                    result = c.getMethod("reverse").invoke(sb);
                    break;
                case 10:
                    result = c.getMethod("setLength", int.class).invoke(sb, Math.max(x, 0) / 2);
                    break;
                case 11:
                    result = c.getMethod("indexOf", String.class, int.class).invoke(sb, s == null ? "l" : s, x) + ","
                        + c.getMethod("lastIndexOf", String.class, int.class).invoke(sb, s == null ? "l" : s, y);
                    break;
                case 12:
                    result = c.getMethod("substring", int.class, int.class).invoke(sb, x, y);
                    break;
                case 13:
                    result = c.getMethod("insert", int.class, int.class).invoke(sb, x, v);
                    break;
                case 14:
                    result = c.getMethod("append", Object.class).invoke(sb, v % 2 == 0 ? null : Integer.valueOf(v));
                    break;
                default:
                    result = c.getMethod("append", CharSequence.class, int.class, int.class).invoke(sb, "0123456789", Math.max(0, Math.min(x, 10)), Math.max(0, Math.min(y, 10)));
            }
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
        // Builders return themselves; compare their text instead.
        return result == sb ? "this" : result;
    }

    static String randomKey(java.util.Random r, int kind) {
        switch (kind) {
            case 0: {
                int n = 1 + r.nextInt(8);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    sb.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".charAt(r.nextInt(62)));
                }
                return sb.toString();
            }
            case 1: {
                // Colliding strings: "Aa" and "BB" have the same hash code.
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 3; i++) {
                    sb.append(r.nextBoolean() ? "Aa" : "BB");
                }
                return sb.toString();
            }
            default:
                return "key" + r.nextInt(500);
        }
    }

    static Integer randomInt(java.util.Random r, int kind) {
        switch (kind) {
            case 0:
                return r.nextInt(100);
            case 1:
                return r.nextInt(2000) - 1000;
            case 2:
                return r.nextInt();
            default:
                return r.nextInt(50) * 65536;
        }
    }

    @SuppressWarnings("unchecked")
    static void mapScenario(String name, Map<Object, Object> mine, Map<Object, Object> jdk, long seed, boolean strings, int kind, int ops) {
        java.util.Random r = new java.util.Random(seed);
        for (int i = 0; i < ops; i++) {
            Object k = strings ? randomKey(r, kind) : randomInt(r, kind);
            int op = r.nextInt(20);
            String w = name + "#" + i;
            if (op < 12) {
                check(w + " put", mine.put(k, i), jdk.put(k, i));
            } else if (op < 15) {
                check(w + " remove", mine.remove(k), jdk.remove(k));
            } else if (op < 16) {
                check(w + " putIfAbsent", mine.putIfAbsent(k, -i), jdk.putIfAbsent(k, -i));
            } else if (op < 17) {
                check(w + " get", mine.get(k) + "/" + mine.containsKey(k) + "/" + mine.getOrDefault(k, "d"), jdk.get(k) + "/" + jdk.containsKey(k) + "/" + jdk.getOrDefault(k, "d"));
            } else if (op < 18 && i % 7 == 0) {
                // Remove a third of the entries through the iterator.
                Iterator<Object> a = mine.keySet().iterator();
                Iterator<Object> b = jdk.keySet().iterator();
                int n = 0;
                while (a.hasNext() && b.hasNext()) {
                    check(w + " iter", a.next(), b.next());
                    if (n++ % 3 == 0) {
                        a.remove();
                        b.remove();
                    }
                }
                check(w + " iter end", a.hasNext(), b.hasNext());
            } else if (op == 19 && r.nextInt(30) == 0) {
                mine.clear();
                jdk.clear();
            }
            if (i % 25 == 0 || i == ops - 1) {
                check(w + " toString", mine.toString(), jdk.toString());
                check(w + " keySet", mine.keySet().toString(), jdk.keySet().toString());
                check(w + " values", mine.values().toString(), jdk.values().toString());
                check(w + " size", mine.size(), jdk.size());
                check(w + " hashCode", mine.hashCode(), jdk.hashCode());
                check(w + " equals", mine.equals(jdk) + "/" + jdk.equals(mine), "true/true");
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void hashMaps() {
        int[] caps = {-1, 0, 1, 3, 16, 17, 100};
        // No load factors above 1: they make buckets long enough for Java to
        // turn them into trees, whose order this HashMap does not reproduce.
        float[] lfs = {0.75f, 0.5f, 1.0f, 0.3f};
        int scenario = 0;
        for (int kind = 0; kind < 4; kind++) {
            for (int c = 0; c < caps.length; c++) {
                for (int s = 0; s < 2; s++) {
                    boolean strings = s == 0;
                    if (strings && kind > 2) {
                        continue;
                    }
                    int cap = caps[c];
                    float lf = lfs[(c + kind) % lfs.length];
                    Map mine;
                    Map jdk;
                    if (cap < 0) {
                        mine = new coretest.util.HashMap();
                        jdk = new java.util.HashMap();
                    } else {
                        mine = new coretest.util.HashMap(cap, lf);
                        jdk = new java.util.HashMap(cap, lf);
                    }
                    String name = "HashMap(" + cap + "," + lf + ") strings=" + strings + " kind=" + kind;
                    mapScenario(name, mine, jdk, 1000 + scenario++, strings, kind, 600);
                    // Copies of the same content.
                    check(name + " copy", new coretest.util.HashMap(jdk).toString(), new java.util.HashMap(jdk).toString());
                    check(name + " clone", ((coretest.util.HashMap) mine).clone().toString(), ((java.util.HashMap) jdk).clone().toString());
                    Map m2 = new coretest.util.HashMap();
                    Map j2 = new java.util.HashMap();
                    m2.put("seed", 1);
                    j2.put("seed", 1);
                    m2.putAll(jdk);
                    j2.putAll(jdk);
                    check(name + " putAll", m2.toString(), j2.toString());
                    // Sets fed from the same list.
                    List<Object> keys = new ArrayList<Object>(jdk.keySet());
                    java.util.Collections.reverse(keys);
                    check(name + " HashSet(c)", new coretest.util.HashSet(keys).toString(), new java.util.HashSet(keys).toString());
                    java.util.Set hs = new coretest.util.HashSet();
                    java.util.Set js = new java.util.HashSet();
                    for (Object k : keys) {
                        hs.add(k);
                        js.add(k);
                    }
                    check(name + " HashSet", hs.toString(), js.toString());
                    check(name + " LinkedHashSet(c)", new coretest.util.LinkedHashSet(keys).toString(), new java.util.LinkedHashSet(keys).toString());
                }
            }
        }
        // Long chains in small tables resize instead of becoming trees.
        // Up to nine rounds: a tenth would reach a 64-entry table with a
        // nine-entry bucket, which Java turns into a tree.
        for (int n = 1; n <= 9; n++) {
            Map mine = new coretest.util.HashMap();
            Map jdk = new java.util.HashMap();
            for (int i = 0; i < n; i++) {
                mine.put(i * 64, i);
                jdk.put(i * 64, i);
                mine.put(i, i);
                jdk.put(i, i);
            }
            check("chain " + n, mine.toString(), jdk.toString());
        }
        Map mine = new coretest.util.HashMap();
        mine.put(null, 1);
        mine.put("a", null);
        Map jdk = new java.util.HashMap();
        jdk.put(null, 1);
        jdk.put("a", null);
        check("nulls", mine + " " + mine.get(null) + mine.containsKey("a") + mine.containsValue(null), jdk + " " + jdk.get(null) + jdk.containsKey("a") + jdk.containsValue(null));
        check("CME", outcome(new Op() {
            public Object run() {
                Map<Integer, Integer> m = new coretest.util.HashMap<Integer, Integer>();
                m.put(1, 1);
                m.put(2, 2);
                for (Integer k : m.keySet()) {
                    m.put(k + 10, 0);
                }
                return m;
            }
        }), "!ConcurrentModificationException");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void hashtables() {
        int[] caps = {-1, 0, 1, 5, 11, 100};
        for (int kind = 0; kind < 4; kind++) {
            for (int c = 0; c < caps.length; c++) {
                boolean strings = kind < 2 && c % 2 == 0;
                Map mine = caps[c] < 0 ? new coretest.util.Hashtable() : new coretest.util.Hashtable(caps[c], c % 3 == 0 ? 0.75f : 0.5f);
                Map jdk = caps[c] < 0 ? new java.util.Hashtable() : new java.util.Hashtable(caps[c], c % 3 == 0 ? 0.75f : 0.5f);
                String name = "Hashtable(" + caps[c] + ") kind=" + kind;
                mapScenario(name, mine, jdk, 900 + kind * 10 + c, strings, kind, 500);
                check(name + " copy", new coretest.util.Hashtable(jdk).toString(), new java.util.Hashtable(jdk).toString());
                check(name + " clone", ((coretest.util.Hashtable) mine).clone().toString(), ((java.util.Hashtable) jdk).clone().toString());
                StringBuilder a = new StringBuilder();
                StringBuilder b = new StringBuilder();
                for (java.util.Enumeration e = ((coretest.util.Hashtable) mine).keys(); e.hasMoreElements();) {
                    a.append(e.nextElement()).append(',');
                }
                for (java.util.Enumeration e = ((java.util.Hashtable) jdk).keys(); e.hasMoreElements();) {
                    b.append(e.nextElement()).append(',');
                }
                check(name + " keys", a, b);
            }
        }
        check("Hashtable null", outcome(new Op() {
            public Object run() {
                return new coretest.util.Hashtable<String, String>().put("a", null);
            }
        }), "!NullPointerException");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void linkedHashMaps() {
        for (int kind = 0; kind < 3; kind++) {
            mapScenario("LinkedHashMap kind=" + kind, new coretest.util.LinkedHashMap(), new java.util.LinkedHashMap(), 77 + kind, kind == 0, kind, 500);
            Map mine = new coretest.util.LinkedHashMap(16, 0.75f, true);
            Map jdk = new java.util.LinkedHashMap(16, 0.75f, true);
            mapScenario("LinkedHashMap access kind=" + kind, mine, jdk, 88 + kind, kind == 1, kind, 500);
        }
        Map mine = new coretest.util.LinkedHashMap<Integer, Integer>(16, 0.75f, true) {
            protected boolean removeEldestEntry(Map.Entry<Integer, Integer> e) {
                return size() > 5;
            }
        };
        Map jdk = new java.util.LinkedHashMap<Integer, Integer>(16, 0.75f, true) {
            protected boolean removeEldestEntry(Map.Entry<Integer, Integer> e) {
                return size() > 5;
            }
        };
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < 300; i++) {
            int k = r.nextInt(12);
            if (r.nextBoolean()) {
                mine.put(k, i);
                jdk.put(k, i);
            } else {
                check("LRU get", mine.get(k), jdk.get(k));
            }
            check("LRU " + i, mine.toString(), jdk.toString());
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void treeMaps() {
        for (int kind = 0; kind < 3; kind++) {
            for (int rev = 0; rev < 2; rev++) {
                boolean strings = kind == 0;
                coretest.util.TreeMap mine = rev == 0 ? new coretest.util.TreeMap() : new coretest.util.TreeMap(coretest.util.Collections.reverseOrder());
                java.util.TreeMap jdk = rev == 0 ? new java.util.TreeMap() : new java.util.TreeMap(java.util.Collections.reverseOrder());
                String name = "TreeMap kind=" + kind + " rev=" + rev;
                mapScenario(name, mine, jdk, 300 + kind * 2 + rev, strings, kind, 2000);
                java.util.Random r = new java.util.Random(kind);
                for (int i = 0; i < 200 && !jdk.isEmpty(); i++) {
                    Object k = strings ? randomKey(r, kind) : randomInt(r, kind);
                    check(name + " floor " + k, mine.floorKey(k) + " " + mine.ceilingKey(k) + " " + mine.higherKey(k) + " " + mine.lowerKey(k),
                        jdk.floorKey(k) + " " + jdk.ceilingKey(k) + " " + jdk.higherKey(k) + " " + jdk.lowerKey(k));
                    check(name + " head " + k, mine.headMap(k).toString(), jdk.headMap(k).toString());
                    check(name + " tail " + k, mine.tailMap(k).toString(), jdk.tailMap(k).toString());
                    check(name + " first/last", mine.firstKey() + " " + mine.lastKey() + " " + mine.firstEntry() + " " + mine.lastEntry(),
                        jdk.firstKey() + " " + jdk.lastKey() + " " + jdk.firstEntry() + " " + jdk.lastEntry());
                    if (i % 10 == 0) {
                        check(name + " poll", mine.pollFirstEntry() + " " + mine.pollLastEntry(), jdk.pollFirstEntry() + " " + jdk.pollLastEntry());
                    }
                }
                check(name + " end", mine.toString(), jdk.toString());
                check(name + " descending", new ArrayList(mine.descendingKeySet()).toString(), new ArrayList(jdk.descendingKeySet()).toString());
                coretest.util.TreeSet ts = rev == 0 ? new coretest.util.TreeSet() : new coretest.util.TreeSet(coretest.util.Collections.reverseOrder());
                java.util.TreeSet js = rev == 0 ? new java.util.TreeSet() : new java.util.TreeSet(java.util.Collections.reverseOrder());
                for (int i = 0; i < 500; i++) {
                    Object k = strings ? randomKey(r, kind) : randomInt(r, kind);
                    if (r.nextInt(3) == 0) {
                        check(name + " set remove", ts.remove(k), js.remove(k));
                    } else {
                        check(name + " set add", ts.add(k), js.add(k));
                    }
                }
                check(name + " set", ts.toString(), js.toString());
                check(name + " set first/last", ts.first() + " " + ts.last(), js.first() + " " + js.last());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void lists() {
        for (int kind = 0; kind < 3; kind++) {
            List mine = kind == 0 ? new coretest.util.ArrayList() : kind == 1 ? new coretest.util.LinkedList() : new coretest.util.Vector();
            List jdk = kind == 0 ? new java.util.ArrayList() : kind == 1 ? new java.util.LinkedList() : new java.util.Vector();
            java.util.Random r = new java.util.Random(kind + 50);
            for (int i = 0; i < 3000; i++) {
                int op = r.nextInt(14);
                int n = jdk.size();
                String w = "list" + kind + "#" + i;
                final int idx = n == 0 ? 0 : r.nextInt(n);
                Integer v = r.nextInt(100);
                if (op < 5) {
                    check(w + " add", mine.add(v), jdk.add(v));
                } else if (op < 7) {
                    mine.add(idx, v);
                    jdk.add(idx, v);
                } else if (op < 8 && n > 0) {
                    check(w + " remove", mine.remove(idx), jdk.remove(idx));
                } else if (op < 9) {
                    check(w + " removeObj", mine.remove(v), jdk.remove(v));
                } else if (op < 10 && n > 0) {
                    check(w + " set", mine.set(idx, v), jdk.set(idx, v));
                } else if (op < 11) {
                    check(w + " indexOf", mine.indexOf(v) + " " + mine.lastIndexOf(v) + " " + mine.contains(v), jdk.indexOf(v) + " " + jdk.lastIndexOf(v) + " " + jdk.contains(v));
                } else if (op < 12 && n > 4) {
                    int to = idx + r.nextInt(n - idx);
                    check(w + " subList", mine.subList(idx, to).toString(), jdk.subList(idx, to).toString());
                    if (r.nextInt(4) == 0) {
                        mine.subList(idx, to).clear();
                        jdk.subList(idx, to).clear();
                    }
                } else if (op < 13) {
                    java.util.ListIterator a = mine.listIterator(idx);
                    java.util.ListIterator b = jdk.listIterator(idx);
                    for (int k = 0; k < 5 && b.hasNext(); k++) {
                        check(w + " li", a.next() + " " + a.nextIndex(), b.next() + " " + b.nextIndex());
                        if (k == 2) {
                            a.remove();
                            b.remove();
                        } else if (k == 3) {
                            a.add(-k);
                            b.add(-k);
                        } else if (k == 1) {
                            a.set(-7);
                            b.set(-7);
                        }
                    }
                    if (b.hasPrevious()) {
                        check(w + " li prev", a.previous(), b.previous());
                    }
                } else if (n > 200) {
                    java.util.Set odd = new java.util.HashSet();
                    for (int k = 0; k < 100; k += 2) {
                        odd.add(k + (i & 1));
                    }
                    check(w + " removeAll", mine.removeAll(odd), jdk.removeAll(odd));
                }
                if (i % 50 == 0) {
                    check(w + " toString", mine.toString(), jdk.toString());
                    check(w + " hashCode", mine.hashCode(), jdk.hashCode());
                    check(w + " equals", mine.equals(jdk), true);
                }
            }
            final List m = mine;
            check("list" + kind + " CME", outcome(new Op() {
                public Object run() {
                    for (Object o : m) {
                        m.add(o);
                    }
                    return null;
                }
            }), m.isEmpty() ? "=null" : "!ConcurrentModificationException");
            // Sorting (stable, by the last digit only) and shuffling.
            List<Integer> base = new java.util.ArrayList<Integer>(jdk);
            coretest.util.ArrayList<Integer> a = new coretest.util.ArrayList<Integer>(base);
            java.util.ArrayList<Integer> b = new java.util.ArrayList<Integer>(base);
            java.util.Comparator<Integer> lastDigit = new java.util.Comparator<Integer>() {
                public int compare(Integer x, Integer y) {
                    return Integer.compare(Math.abs(x % 10), Math.abs(y % 10));
                }
            };
            coretest.util.Collections.sort(a, lastDigit);
            java.util.Collections.sort(b, lastDigit);
            check("list" + kind + " stable sort", a, b);
            coretest.util.Collections.sort(a);
            java.util.Collections.sort(b);
            check("list" + kind + " sort", a, b);
            coretest.util.Collections.reverse(a);
            java.util.Collections.reverse(b);
            check("list" + kind + " reverse", a, b);
            for (long seed : SEEDS) {
                coretest.util.Collections.shuffle(a, new coretest.util.Random(seed));
                java.util.Collections.shuffle(b, new java.util.Random(seed));
                check("list" + kind + " shuffle " + seed, a, b);
            }
            check("list" + kind + " max/min", coretest.util.Collections.max(a) + " " + coretest.util.Collections.min(a) + " " + coretest.util.Collections.max(a, lastDigit),
                java.util.Collections.max(b) + " " + java.util.Collections.min(b) + " " + java.util.Collections.max(b, lastDigit));
            coretest.util.Collections.swap(a, 0, a.size() - 1);
            java.util.Collections.swap(b, 0, b.size() - 1);
            coretest.util.Collections.rotate(a, 7);
            java.util.Collections.rotate(b, 7);
            check("list" + kind + " swap/rotate", a, b);
            check("list" + kind + " frequency", coretest.util.Collections.frequency(a, 5), java.util.Collections.frequency(b, 5));
        }
        check("nCopies", coretest.util.Collections.nCopies(3, "x"), java.util.Collections.nCopies(3, "x"));
        check("singletonList", coretest.util.Collections.singletonList(1), java.util.Collections.singletonList(1));
        check("emptyList", coretest.util.Collections.emptyList() + " " + coretest.util.Collections.emptyMap() + " " + coretest.util.Collections.emptySet(), "[] {} []");
        check("unmodifiable", outcome(new Op() {
            public Object run() {
                return coretest.util.Collections.unmodifiableList(new java.util.ArrayList<Integer>()).add(1);
            }
        }), "!UnsupportedOperationException");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void queues() {
        for (int c = 0; c < 2; c++) {
            java.util.Queue mine = c == 0 ? new coretest.util.PriorityQueue() : new coretest.util.PriorityQueue(5, java.util.Collections.reverseOrder());
            java.util.Queue jdk = c == 0 ? new java.util.PriorityQueue() : new java.util.PriorityQueue(5, java.util.Collections.reverseOrder());
            java.util.Random r = new java.util.Random(c);
            for (int i = 0; i < 2000; i++) {
                int op = r.nextInt(10);
                Integer v = r.nextInt(200);
                if (op < 5) {
                    mine.offer(v);
                    jdk.offer(v);
                } else if (op < 8) {
                    check("pq poll", mine.poll(), jdk.poll());
                } else if (op < 9) {
                    check("pq remove", mine.remove(v), jdk.remove(v));
                } else if (i % 20 == 9) {
                    Iterator a = mine.iterator();
                    Iterator b = jdk.iterator();
                    int n = 0;
                    while (b.hasNext()) {
                        check("pq iter", a.next(), b.next());
                        if (n++ % 4 == 0) {
                            a.remove();
                            b.remove();
                        }
                    }
                }
                check("pq#" + i, mine.toString(), jdk.toString());
            }
            List<Integer> l = new java.util.ArrayList<Integer>();
            for (int i = 0; i < 100; i++) {
                l.add(r.nextInt(50));
            }
            check("pq(c)", new coretest.util.PriorityQueue(l).toString(), new java.util.PriorityQueue(l).toString());
        }
        java.util.Deque mine = new coretest.util.ArrayDeque();
        java.util.Deque jdk = new java.util.ArrayDeque();
        java.util.Deque ml = new coretest.util.LinkedList();
        java.util.Random r = new java.util.Random(3);
        for (int i = 0; i < 3000; i++) {
            int op = r.nextInt(9);
            Integer v = r.nextInt(100);
            String w = "deque#" + i;
            switch (op) {
                case 0:
                    mine.addFirst(v);
                    jdk.addFirst(v);
                    ml.addFirst(v);
                    break;
                case 1:
                case 2:
                    mine.addLast(v);
                    jdk.addLast(v);
                    ml.addLast(v);
                    break;
                case 3:
                    check(w + " pollFirst", mine.pollFirst() + " " + ml.pollFirst(), jdk.peekFirst() + " " + jdk.pollFirst());
                    break;
                case 4:
                    check(w + " pollLast", mine.pollLast() + " " + ml.pollLast(), jdk.peekLast() + " " + jdk.pollLast());
                    break;
                case 5:
                    boolean removed = jdk.removeFirstOccurrence(v);
                    check(w + " removeFirstOcc", mine.removeFirstOccurrence(v) + " " + ml.removeFirstOccurrence(v), removed + " " + removed);
                    break;
                case 6:
                    check(w + " removeLastOcc", mine.removeLastOccurrence(v), jdk.removeLastOccurrence(v));
                    ml.clear();
                    ml.addAll(jdk);
                    break;
                case 7:
                    mine.push(v);
                    jdk.push(v);
                    ml.push(v);
                    break;
                default:
                    Iterator a = mine.descendingIterator();
                    Iterator b = jdk.descendingIterator();
                    StringBuilder sa = new StringBuilder();
                    StringBuilder sb = new StringBuilder();
                    while (b.hasNext()) {
                        sa.append(a.next()).append(',');
                        sb.append(b.next()).append(',');
                    }
                    check(w + " descending", sa, sb);
            }
            check(w, mine.toString(), jdk.toString());
            check(w + " linked", ml.toString(), jdk.toString());
        }
    }

    static void arrays() {
        java.util.Random r = new java.util.Random(9);
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -1.0, 1.0};
        for (int t = 0; t < 300; t++) {
            int n = t < 20 ? t : r.nextInt(t < 200 ? 60 : 2000);
            int range = 1 + r.nextInt(t % 3 == 0 ? 10 : 1000000);
            int[] ia = new int[n];
            long[] la = new long[n];
            short[] sa = new short[n];
            char[] ca = new char[n];
            byte[] ba = new byte[n];
            double[] da = new double[n];
            float[] fa = new float[n];
            Integer[] oa = new Integer[n];
            String[] stra = new String[n];
            for (int i = 0; i < n; i++) {
                int x = r.nextInt(range) - range / 2;
                ia[i] = t % 5 == 0 ? r.nextInt() : x;
                la[i] = t % 5 == 0 ? r.nextLong() : x;
                sa[i] = (short) r.nextInt();
                ca[i] = (char) r.nextInt();
                ba[i] = (byte) r.nextInt();
                da[i] = r.nextInt(4) == 0 ? specials[r.nextInt(specials.length)] : x / 3.0;
                fa[i] = (float) da[i];
                oa[i] = x;
                stra[i] = Integer.toString(x, 7);
            }
            int from = n == 0 ? 0 : r.nextInt(n);
            int to = from + (n == from ? 0 : r.nextInt(n - from + 1));
            int[] ia2 = ia.clone();
            coretest.util.Arrays.sort(ia);
            java.util.Arrays.sort(ia2);
            check("sort int " + t, java.util.Arrays.toString(ia), java.util.Arrays.toString(ia2));
            long[] la2 = la.clone();
            coretest.util.Arrays.sort(la, from, to);
            java.util.Arrays.sort(la2, from, to);
            check("sort long " + t, java.util.Arrays.toString(la), java.util.Arrays.toString(la2));
            short[] sa2 = sa.clone();
            coretest.util.Arrays.sort(sa);
            java.util.Arrays.sort(sa2);
            check("sort short " + t, java.util.Arrays.toString(sa), java.util.Arrays.toString(sa2));
            char[] ca2 = ca.clone();
            coretest.util.Arrays.sort(ca);
            java.util.Arrays.sort(ca2);
            check("sort char " + t, java.util.Arrays.equals(ca, ca2), true);
            byte[] ba2 = ba.clone();
            coretest.util.Arrays.sort(ba);
            java.util.Arrays.sort(ba2);
            check("sort byte " + t, java.util.Arrays.toString(ba), java.util.Arrays.toString(ba2));
            double[] da2 = da.clone();
            coretest.util.Arrays.sort(da);
            java.util.Arrays.sort(da2);
            check("sort double " + t, java.util.Arrays.toString(da), java.util.Arrays.toString(da2));
            check("sort double bits " + t, java.util.Arrays.equals(da, da2), true);
            float[] fa2 = fa.clone();
            coretest.util.Arrays.sort(fa, from, to);
            java.util.Arrays.sort(fa2, from, to);
            check("sort float " + t, java.util.Arrays.toString(fa), java.util.Arrays.toString(fa2));
            Integer[] oa2 = oa.clone();
            java.util.Comparator<Integer> byMod = new java.util.Comparator<Integer>() {
                public int compare(Integer x, Integer y) {
                    return Integer.compare(x % 7, y % 7);
                }
            };
            coretest.util.Arrays.sort(oa, byMod);
            java.util.Arrays.sort(oa2, byMod);
            check("sort stable " + t, java.util.Arrays.toString(oa), java.util.Arrays.toString(oa2));
            String[] stra2 = stra.clone();
            coretest.util.Arrays.sort(stra, from, to);
            java.util.Arrays.sort(stra2, from, to);
            check("sort strings " + t, java.util.Arrays.toString(stra), java.util.Arrays.toString(stra2));
            for (int k = 0; k < 10; k++) {
                int key = n == 0 ? 0 : (k % 2 == 0 ? ia[r.nextInt(n)] : r.nextInt());
                check("binarySearch int " + t, coretest.util.Arrays.binarySearch(ia, key), java.util.Arrays.binarySearch(ia, key));
                double dk = n == 0 ? 0 : da[r.nextInt(n)];
                check("binarySearch double " + t, coretest.util.Arrays.binarySearch(da, dk), java.util.Arrays.binarySearch(da, dk));
                Integer ok = n == 0 ? 0 : oa[r.nextInt(n)];
                check("binarySearch cmp " + t, coretest.util.Arrays.binarySearch(oa, ok, byMod), java.util.Arrays.binarySearch(oa, ok, byMod));
            }
            check("toString int " + t, coretest.util.Arrays.toString(ia), java.util.Arrays.toString(ia));
            check("toString char " + t, coretest.util.Arrays.toString(ca), java.util.Arrays.toString(ca));
            check("toString Object " + t, coretest.util.Arrays.toString(oa), java.util.Arrays.toString(oa));
            check("hashCode " + t, coretest.util.Arrays.hashCode(ia) + " " + coretest.util.Arrays.hashCode(da) + " " + coretest.util.Arrays.hashCode(fa) + " "
                + coretest.util.Arrays.hashCode(la) + " " + coretest.util.Arrays.hashCode(oa) + " " + coretest.util.Arrays.hashCode(ca),
                java.util.Arrays.hashCode(ia) + " " + java.util.Arrays.hashCode(da) + " " + java.util.Arrays.hashCode(fa) + " "
                + java.util.Arrays.hashCode(la) + " " + java.util.Arrays.hashCode(oa) + " " + java.util.Arrays.hashCode(ca));
            check("copyOf " + t, java.util.Arrays.toString(coretest.util.Arrays.copyOf(ia, n / 2 + 3)) + java.util.Arrays.toString(coretest.util.Arrays.copyOfRange(stra, from, to + 2)),
                java.util.Arrays.toString(java.util.Arrays.copyOf(ia, n / 2 + 3)) + java.util.Arrays.toString(java.util.Arrays.copyOfRange(stra, from, to + 2)));
            check("asList " + t, coretest.util.Arrays.asList(oa), java.util.Arrays.asList(oa));
        }
        Object[] nested = {1, new int[] {1, 2}, new Object[] {"a", new double[] {0.5}}, null, new String[0]};
        Object[] self = {1, null};
        self[1] = self;
        check("deepToString", coretest.util.Arrays.deepToString(nested) + coretest.util.Arrays.deepToString(self),
            java.util.Arrays.deepToString(nested) + java.util.Arrays.deepToString(self));
        check("deepHashCode", coretest.util.Arrays.deepHashCode(nested), java.util.Arrays.deepHashCode(nested));
        String[] typed = coretest.util.Arrays.copyOf(new String[] {"x"}, 3);
        check("copyOf type", typed.getClass().getName() + " " + typed.length, "[Ljava.lang.String; 3");
    }

    static void misc() {
        check("Objects.hash", coretest.util.Objects.hash(1, "a", null, 2.5), java.util.Objects.hash(1, "a", null, 2.5));
        check("Objects.equals", coretest.util.Objects.equals(null, null) + " " + coretest.util.Objects.equals("a", null), "true false");
        check("Objects.toString", coretest.util.Objects.toString(null) + coretest.util.Objects.toString(null, "d"), "nulld");
    }
}
