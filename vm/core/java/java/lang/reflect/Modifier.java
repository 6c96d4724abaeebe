package java.lang.reflect;

/** The Java language modifiers as the bits of access flags. */
public class Modifier {
    public static final int PUBLIC = 0x0001;
    public static final int PRIVATE = 0x0002;
    public static final int PROTECTED = 0x0004;
    public static final int STATIC = 0x0008;
    public static final int FINAL = 0x0010;
    public static final int SYNCHRONIZED = 0x0020;
    public static final int VOLATILE = 0x0040;
    public static final int TRANSIENT = 0x0080;
    public static final int NATIVE = 0x0100;
    public static final int INTERFACE = 0x0200;
    public static final int ABSTRACT = 0x0400;
    public static final int STRICT = 0x0800;

    // Flags of the class file format that share bits with the ones above.
    static final int BRIDGE = 0x0040;
    static final int VARARGS = 0x0080;
    static final int SYNTHETIC = 0x1000;
    static final int ANNOTATION = 0x2000;
    static final int ENUM = 0x4000;

    public Modifier() {
    }

    public static boolean isPublic(int mod) {
        return (mod & PUBLIC) != 0;
    }

    public static boolean isPrivate(int mod) {
        return (mod & PRIVATE) != 0;
    }

    public static boolean isProtected(int mod) {
        return (mod & PROTECTED) != 0;
    }

    public static boolean isStatic(int mod) {
        return (mod & STATIC) != 0;
    }

    public static boolean isFinal(int mod) {
        return (mod & FINAL) != 0;
    }

    public static boolean isSynchronized(int mod) {
        return (mod & SYNCHRONIZED) != 0;
    }

    public static boolean isVolatile(int mod) {
        return (mod & VOLATILE) != 0;
    }

    public static boolean isTransient(int mod) {
        return (mod & TRANSIENT) != 0;
    }

    public static boolean isNative(int mod) {
        return (mod & NATIVE) != 0;
    }

    public static boolean isInterface(int mod) {
        return (mod & INTERFACE) != 0;
    }

    public static boolean isAbstract(int mod) {
        return (mod & ABSTRACT) != 0;
    }

    public static boolean isStrict(int mod) {
        return (mod & STRICT) != 0;
    }

    /** Returns the modifiers in the canonical order of the Java language specification. */
    public static String toString(int mod) {
        StringBuilder sb = new StringBuilder();
        append(sb, mod, PUBLIC, "public");
        append(sb, mod, PROTECTED, "protected");
        append(sb, mod, PRIVATE, "private");
        append(sb, mod, ABSTRACT, "abstract");
        append(sb, mod, STATIC, "static");
        append(sb, mod, FINAL, "final");
        append(sb, mod, TRANSIENT, "transient");
        append(sb, mod, VOLATILE, "volatile");
        append(sb, mod, SYNCHRONIZED, "synchronized");
        append(sb, mod, NATIVE, "native");
        append(sb, mod, STRICT, "strictfp");
        append(sb, mod, INTERFACE, "interface");
        return sb.toString();
    }

    private static void append(StringBuilder sb, int mod, int bit, String word) {
        if ((mod & bit) != 0) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(word);
        }
    }

    public static int classModifiers() {
        return PUBLIC | PROTECTED | PRIVATE | ABSTRACT | STATIC | FINAL | STRICT;
    }

    public static int interfaceModifiers() {
        return PUBLIC | PROTECTED | PRIVATE | ABSTRACT | STATIC | STRICT;
    }

    public static int constructorModifiers() {
        return PUBLIC | PROTECTED | PRIVATE;
    }

    public static int methodModifiers() {
        return PUBLIC | PROTECTED | PRIVATE | ABSTRACT | STATIC | FINAL | SYNCHRONIZED | NATIVE | STRICT;
    }

    public static int fieldModifiers() {
        return PUBLIC | PROTECTED | PRIVATE | STATIC | FINAL | TRANSIENT | VOLATILE;
    }

    public static int parameterModifiers() {
        return FINAL;
    }
}
