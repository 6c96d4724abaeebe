import java.lang.annotation.Annotation;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

// Exercises java.lang.reflect and Class's reflection methods; the output
// must be identical on the JVM and on the VM. Exception messages differ
// between platforms, so only exception classes are printed.
public class Main {
    interface Shape {
        int SIDES = 0;

        double area();
    }

    interface Named {
        String name();
    }

    static abstract class Base implements Shape {
        public static int created;
        public int id = 7;
        protected long big = 1L << 40;
        private String secret = "s";

        public String describe() {
            return "base";
        }

        protected int hidden() {
            return 1;
        }
    }

    public static final class Square extends Base implements Named, Comparable<Square> {
        public static final int CONST = 4;
        public static String label = "sq";
        public double side;
        public final int fixed = 3;
        public byte b;
        public short s;
        public char c;
        public boolean z;
        public float f;
        public Object any;
        public Integer boxed;

        public Square() {
            this(1.0);
        }

        public Square(double side) {
            this.side = side;
            created++;
        }

        private Square(int bad) {
            throw new IllegalStateException("bad " + bad);
        }

        public double area() {
            return side * side;
        }

        public String name() {
            return "square";
        }

        public String describe() {
            return "square " + side;
        }

        public int compareTo(Square o) {
            return Double.compare(side, o.side);
        }

        public static long add(long a, int b) {
            return a + b;
        }

        public static int twice(int x) {
            return 2 * x;
        }

        public static char next(char c) {
            return (char) (c + 1);
        }

        public static boolean not(boolean z) {
            return !z;
        }

        public static float half(float f) {
            return f / 2;
        }

        public static byte neg(byte b) {
            return (byte) -b;
        }

        public static short inc(short s) {
            return (short) (s + 1);
        }

        public static void nothing() {
        }

        public static String join(String a, Object b, int[] c) {
            return a + b + c.length;
        }

        public static int fail(int x) {
            throw new ArithmeticException("fail " + x);
        }

        private static int priv() {
            return 42;
        }

        synchronized void sync() {
        }
    }

    enum Color {
        RED, GREEN
    }

    static class Inner {
    }

    class NonStatic {
    }

    static void section(String s) {
        System.out.println("== " + s);
    }

    static String exc(Throwable t) {
        return t.getClass().getName();
    }

    static List<String> names(Method[] ms, boolean skipObject) {
        List<String> out = new ArrayList<String>();
        for (Method m : ms) {
            if (skipObject && m.getDeclaringClass() == Object.class) {
                continue;
            }
            if (m.isSynthetic()) {
                continue;
            }
            StringBuilder sb = new StringBuilder(m.getName()).append('(');
            for (Class<?> p : m.getParameterTypes()) {
                sb.append(p.getSimpleName()).append(' ');
            }
            out.add(sb.append(")->").append(m.getReturnType().getSimpleName()).append(" in ").append(m.getDeclaringClass().getSimpleName()).toString());
        }
        Collections.sort(out);
        return out;
    }

    static List<String> fieldNames(Field[] fs) {
        List<String> out = new ArrayList<String>();
        for (Field f : fs) {
            if (!f.isSynthetic()) {
                out.add(f.getName() + ":" + f.getType().getSimpleName() + " in " + f.getDeclaringClass().getSimpleName());
            }
        }
        Collections.sort(out);
        return out;
    }

    public static void main(String[] args) throws Exception {
        modifiers();
        methods();
        invoke();
        fields();
        constructors();
        classes();
        arrays();
        enums();
        access();
        annotations();
        generics();
        repeatable();
        proxies();
        classLoaders();
        System.out.println("done");
    }

    static class Init {
        static {
            System.out.println("Init initialised");
        }
    }

    // What the JVM and Android agree on; boot classes differ (the JVM
    // returns null, Android its BootClassLoader).
    static void classLoaders() throws Exception {
        section("ClassLoader");
        ClassLoader app = Main.class.getClassLoader();
        System.out.println(app == ClassLoader.getSystemClassLoader());
        System.out.println(int.class.getClassLoader() + " " + (Main[].class.getClassLoader() == app) + " " + (int[].class.getClassLoader() == null));
        System.out.println(Thread.currentThread().getContextClassLoader() == app);
        Class<?> c = Class.forName("Main$Init", false, app);
        System.out.println("loaded " + c.getName() + " without initialising");
        Class.forName("Main$Init", true, app);
        System.out.println(Class.forName("java.lang.String", false, null).getName() + " " + (app.loadClass("java.util.ArrayList") == java.util.ArrayList.class));
        try {
            Class.forName("Main", false, null);
        } catch (ClassNotFoundException e) {
            System.out.println("boot loader: " + e.getClass().getName() + ": " + e.getMessage());
        }
        try {
            Class.forName("NoSuch", true, app);
        } catch (ClassNotFoundException e) {
            System.out.println(e.getClass().getName() + ": " + e.getMessage());
        }
        System.out.println(app.getParent() != null);
    }

    interface Calc {
        int add(int a, int b);
        long scale(long v, double f);
        String name();
        void fail() throws java.io.IOException;
    }

    static void proxies() throws Exception {
        section("Proxy");
        InvocationHandler h = new InvocationHandler() {
            public Object invoke(Object proxy, Method m, Object[] a) throws Throwable {
                switch (m.getName()) {
                    case "add": return (Integer) a[0] + (Integer) a[1];
                    case "scale": return (long) ((Long) a[0] * (Double) a[1]);
                    case "name": return "calc";
                    case "fail": throw new java.io.IOException("declared");
                    default: return null;
                }
            }
        };
        Calc c = (Calc) Proxy.newProxyInstance(ClassLoader.getSystemClassLoader(), new Class<?>[] {Calc.class}, h);
        System.out.println(c.add(2, 3) + " " + c.scale(10, 2.5) + " " + c.name());
        try {
            c.fail();
        } catch (java.io.IOException e) {
            System.out.println("IOException " + e.getMessage());
        }
        System.out.println(Proxy.isProxyClass(c.getClass()) + " " + Proxy.isProxyClass(Main.class)
                + " " + (Proxy.getInvocationHandler(c) == h));
        Class<?> pc = Proxy.getProxyClass(ClassLoader.getSystemClassLoader(), Calc.class);
        System.out.println((pc == c.getClass()) + " " + Modifier.isFinal(pc.getModifiers())
                + " " + (pc.getSuperclass() == Proxy.class) + " " + Calc.class.isAssignableFrom(pc));
        try {
            Proxy.newProxyInstance(null, new Class<?>[] {String.class}, h);
        } catch (IllegalArgumentException e) {
            System.out.println("IllegalArgumentException");
        }
        try {
            Proxy.getInvocationHandler("x");
        } catch (IllegalArgumentException e) {
            System.out.println("IllegalArgumentException");
        }
    }

    static void modifiers() {
        section("Modifier");
        int[] all = {Modifier.PUBLIC, Modifier.PRIVATE, Modifier.PROTECTED, Modifier.STATIC, Modifier.FINAL,
            Modifier.SYNCHRONIZED, Modifier.VOLATILE, Modifier.TRANSIENT, Modifier.NATIVE, Modifier.INTERFACE,
            Modifier.ABSTRACT, Modifier.STRICT};
        int sum = 0;
        for (int m : all) {
            sum |= m;
            System.out.println(m + " " + Modifier.toString(m));
        }
        System.out.println(Modifier.toString(sum));
        System.out.println(Modifier.isPublic(1) + " " + Modifier.isPrivate(1) + " " + Modifier.isProtected(4) + " "
                + Modifier.isStatic(8) + " " + Modifier.isFinal(16) + " " + Modifier.isSynchronized(32) + " "
                + Modifier.isVolatile(64) + " " + Modifier.isTransient(128) + " " + Modifier.isNative(256) + " "
                + Modifier.isInterface(512) + " " + Modifier.isAbstract(1024) + " " + Modifier.isStrict(2048) + " "
                + Modifier.isAbstract(1));
        System.out.println(Modifier.classModifiers() + " " + Modifier.interfaceModifiers() + " "
                + Modifier.constructorModifiers() + " " + Modifier.methodModifiers() + " " + Modifier.fieldModifiers());
    }

    static void methods() throws Exception {
        section("declared methods");
        for (String s : names(Square.class.getDeclaredMethods(), false)) {
            System.out.println(s);
        }
        section("public methods");
        for (String s : names(Square.class.getMethods(), true)) {
            System.out.println(s);
        }
        section("interface methods");
        for (String s : names(Shape.class.getMethods(), true)) {
            System.out.println(s);
        }
        section("getMethod");
        Method add = Square.class.getMethod("add", long.class, int.class);
        System.out.println(add.getName() + " " + add.getReturnType() + " " + add.getParameterTypes().length + " "
                + add.getParameterTypes()[0] + " " + add.getParameterTypes()[1] + " " + add.getDeclaringClass().getName()
                + " " + Modifier.toString(add.getModifiers()) + " " + add.getParameterCount());
        System.out.println(add);
        Method describe = Square.class.getMethod("describe");
        System.out.println(describe + " " + describe.getDeclaringClass().getSimpleName());
        Method baseDescribe = Base.class.getMethod("describe");
        System.out.println(baseDescribe + " " + baseDescribe.equals(describe) + " " + describe.equals(Square.class.getMethod("describe")));
        System.out.println(Square.class.getMethod("area").getDeclaringClass().getSimpleName());
        System.out.println(Base.class.getMethod("area").getDeclaringClass().getSimpleName());
        System.out.println(Square.class.getMethod("hashCode").getDeclaringClass().getSimpleName());
        System.out.println(Square.class.getDeclaredMethod("priv").getModifiers());
        System.out.println(Square.class.getDeclaredMethod("sync").getModifiers());
        System.out.println(Base.class.getDeclaredMethod("hidden") + " " + Modifier.isAbstract(Shape.class.getMethod("area").getModifiers()));
        String[][] missing = {{"priv"}, {"hidden"}, {"nope"}, {"add"}};
        for (String[] m : missing) {
            try {
                Square.class.getMethod(m[0]);
                System.out.println("found " + m[0]);
            } catch (NoSuchMethodException e) {
                System.out.println(m[0] + ": " + exc(e));
            }
        }
        try {
            Square.class.getDeclaredMethod("describe", int.class);
        } catch (NoSuchMethodException e) {
            System.out.println("describe(int): " + exc(e));
        }
        try {
            Square.class.getDeclaredMethod("hidden");
        } catch (NoSuchMethodException e) {
            System.out.println("declared hidden: " + exc(e));
        }
        try {
            Square.class.getMethod(null);
        } catch (NullPointerException e) {
            System.out.println("null name: " + exc(e));
        }
    }

    static void call(Method m, Object recv, Object... args) {
        try {
            Object r = m.invoke(recv, args);
            System.out.println(m.getName() + " -> " + r + (r == null ? "" : " " + r.getClass().getSimpleName()));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            // ClassCastException messages differ between platforms.
            String msg = cause instanceof ClassCastException ? "" : " " + cause.getMessage();
            System.out.println(m.getName() + " threw " + exc(e) + " cause " + exc(cause) + msg
                    + " " + (e.getTargetException() == cause));
        } catch (Exception e) {
            System.out.println(m.getName() + " threw " + exc(e));
        }
    }

    static void invoke() throws Exception {
        section("invoke");
        Class<Square> c = Square.class;
        Square sq = new Square(3.0);
        call(c.getMethod("add", long.class, int.class), null, 5L, 6);
        call(c.getMethod("add", long.class, int.class), null, 5, (short) 6);
        call(c.getMethod("add", long.class, int.class), null, 'a', 'b');
        call(c.getMethod("add", long.class, int.class), null, (byte) 1, (byte) 2);
        call(c.getMethod("add", long.class, int.class), null, 5L, 6L);
        call(c.getMethod("add", long.class, int.class), null, 5.0, 6);
        call(c.getMethod("add", long.class, int.class), null, 5L);
        call(c.getMethod("add", long.class, int.class), null, 5L, 6, 7);
        call(c.getMethod("add", long.class, int.class), null, null, 6);
        call(c.getMethod("add", long.class, int.class), null, "5", 6);
        call(c.getMethod("add", long.class, int.class), "ignored receiver", 1L, 2);
        call(c.getMethod("twice", int.class), null, 21);
        call(c.getMethod("twice", int.class), null, Integer.valueOf(-4));
        call(c.getMethod("next", char.class), null, 'y');
        call(c.getMethod("next", char.class), null, 1);
        call(c.getMethod("not", boolean.class), null, true);
        call(c.getMethod("not", boolean.class), null, 1);
        call(c.getMethod("half", float.class), null, 3f);
        call(c.getMethod("half", float.class), null, 3);
        call(c.getMethod("half", float.class), null, 3L);
        call(c.getMethod("half", float.class), null, 3.0);
        call(c.getMethod("neg", byte.class), null, (byte) 5);
        call(c.getMethod("inc", short.class), null, (byte) 5);
        call(c.getMethod("inc", short.class), null, 'c');
        call(c.getMethod("nothing"), null);
        call(c.getMethod("nothing"), null, (Object[]) null);
        call(c.getMethod("join", String.class, Object.class, int[].class), null, "a", 1, new int[3]);
        call(c.getMethod("join", String.class, Object.class, int[].class), null, null, null, new int[0]);
        call(c.getMethod("join", String.class, Object.class, int[].class), null, "a", 1, new long[3]);
        call(c.getMethod("fail", int.class), null, 9);
        call(c.getMethod("area"), sq);
        call(c.getMethod("area"), null);
        call(c.getMethod("area"), "not a square");
        call(Shape.class.getMethod("area"), sq);
        call(Named.class.getMethod("name"), sq);
        call(Base.class.getMethod("describe"), sq);
        call(Object.class.getMethod("toString"), Integer.valueOf(12));
        call(Object.class.getMethod("equals", Object.class), "x", "x");
        call(Comparable.class.getMethod("compareTo", Object.class), sq, new Square(5.0));
        call(Comparable.class.getMethod("compareTo", Object.class), sq, "wrong");
        Method priv = c.getDeclaredMethod("priv");
        priv.setAccessible(true);
        System.out.println(priv.isAccessible());
        call(priv, null);
        call(String.class.getMethod("length"), "hello");
        call(String.class.getMethod("charAt", int.class), "hello", 1);
        call(String.class.getMethod("charAt", int.class), "hello", 10);
        call(Integer.class.getMethod("parseInt", String.class), null, "123");
        call(Integer.class.getMethod("parseInt", String.class), null, "x");
        call(Math.class.getMethod("max", double.class, double.class), null, 1, 2.5f);
    }

    static void fields() throws Exception {
        section("fields");
        for (String s : fieldNames(Square.class.getDeclaredFields())) {
            System.out.println(s);
        }
        section("public fields");
        for (String s : fieldNames(Square.class.getFields())) {
            System.out.println(s);
        }
        section("field access");
        Square sq = new Square(2.0);
        Field side = Square.class.getField("side");
        System.out.println(side + " " + side.getName() + " " + side.getType() + " " + side.getDeclaringClass().getSimpleName()
                + " " + side.getModifiers());
        System.out.println(side.get(sq) + " " + side.getDouble(sq));
        side.set(sq, 4.5);
        System.out.println(sq.side);
        side.setInt(sq, 3);
        side.set(sq, Integer.valueOf(5));
        System.out.println(sq.side);
        side.setFloat(sq, 1.5f);
        System.out.println(side.get(sq));
        Field id = Square.class.getField("id");
        System.out.println(id + " " + id.getInt(sq) + " " + id.getLong(sq) + " " + id.getFloat(sq) + " " + id.getDouble(sq));
        id.setInt(sq, 99);
        id.setShort(sq, (short) 12);
        id.setChar(sq, 'A');
        System.out.println(sq.id);
        Field big = Base.class.getDeclaredField("big");
        System.out.println(big + " " + big.getLong(sq) + " " + big.get(sq));
        big.setLong(sq, -1);
        big.setInt(sq, 5);
        System.out.println(big.getLong(sq));
        Field secret = Base.class.getDeclaredField("secret");
        secret.setAccessible(true);
        System.out.println(secret + " " + secret.get(sq));
        secret.set(sq, "t");
        System.out.println(secret.get(sq));
        Field label = Square.class.getField("label");
        System.out.println(label.get(null) + " " + label.get("ignored"));
        label.set(null, "new");
        System.out.println(Square.label);
        Field created = Square.class.getField("created");
        System.out.println(created.getDeclaringClass().getSimpleName() + " " + (created.getInt(null) > 0));
        Field cnst = Square.class.getField("CONST");
        System.out.println(cnst + " " + cnst.get(null) + " " + cnst.getModifiers());
        Field sides = Square.class.getField("SIDES");
        System.out.println(sides.getDeclaringClass().getSimpleName() + " " + sides.get(null));
        Field bf = Square.class.getField("b");
        bf.setByte(sq, (byte) -3);
        System.out.println(bf.getByte(sq) + " " + bf.getShort(sq) + " " + bf.getInt(sq) + " " + bf.get(sq).getClass().getSimpleName());
        Field sf = Square.class.getField("s");
        sf.setShort(sq, (short) -300);
        System.out.println(sf.getShort(sq) + " " + sf.getLong(sq));
        Field cf = Square.class.getField("c");
        cf.setChar(sq, '\uffff');
        System.out.println((int) cf.getChar(sq) + " " + cf.getInt(sq));
        Field zf = Square.class.getField("z");
        zf.setBoolean(sq, true);
        System.out.println(zf.getBoolean(sq) + " " + zf.get(sq));
        Field ff = Square.class.getField("f");
        ff.setFloat(sq, 2.25f);
        ff.setLong(sq, 1L << 20);
        System.out.println(ff.getFloat(sq) + " " + ff.getDouble(sq));
        Field any = Square.class.getField("any");
        any.set(sq, "str");
        System.out.println(any.get(sq));
        any.set(sq, null);
        System.out.println(any.get(sq));
        Field boxed = Square.class.getField("boxed");
        boxed.set(sq, 5);
        System.out.println(boxed.get(sq));
        Object[][] bad = {
            {id, "str"}, {id, 5L}, {id, null}, {zf, 1}, {cf, (short) 1}, {boxed, 5L}, {boxed, "x"},
            {Square.class.getField("fixed"), 4}, {cnst, 5},
        };
        for (Object[] b : bad) {
            try {
                ((Field) b[0]).set(sq, b[1]);
                System.out.println("set " + ((Field) b[0]).getName() + " ok");
            } catch (Exception e) {
                System.out.println("set " + ((Field) b[0]).getName() + " " + b[1] + ": " + exc(e));
            }
        }
        try {
            id.getBoolean(sq);
        } catch (IllegalArgumentException e) {
            System.out.println("getBoolean int: " + exc(e));
        }
        try {
            big.getInt(sq);
        } catch (IllegalArgumentException e) {
            System.out.println("getInt long: " + exc(e));
        }
        try {
            bf.setInt(sq, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("setInt byte: " + exc(e));
        }
        try {
            any.getInt(sq);
        } catch (IllegalArgumentException e) {
            System.out.println("getInt Object: " + exc(e));
        }
        try {
            id.get(null);
        } catch (NullPointerException e) {
            System.out.println("get null: " + exc(e));
        }
        try {
            id.get("string");
        } catch (IllegalArgumentException e) {
            System.out.println("get wrong receiver: " + exc(e));
        }
        try {
            Square.class.getField("secret");
        } catch (NoSuchFieldException e) {
            System.out.println("getField secret: " + exc(e));
        }
        try {
            Square.class.getDeclaredField("id");
        } catch (NoSuchFieldException e) {
            System.out.println("getDeclaredField id: " + exc(e));
        }
    }

    static void constructors() throws Exception {
        section("constructors");
        System.out.println(Square.class.getDeclaredConstructors().length + " " + Square.class.getConstructors().length);
        Constructor<Square> c = Square.class.getConstructor(double.class);
        System.out.println(c + " " + c.getName() + " " + c.getParameterTypes()[0] + " " + c.getModifiers()
                + " " + (c.getDeclaringClass() == Square.class));
        System.out.println(c.newInstance(2.0).area() + " " + c.newInstance(3).area());
        System.out.println(Square.class.getConstructor().newInstance().side);
        System.out.println(Square.class.newInstance().side);
        Constructor<Square> bad = Square.class.getDeclaredConstructor(int.class);
        bad.setAccessible(true);
        try {
            bad.newInstance(4);
        } catch (InvocationTargetException e) {
            System.out.println("ctor: " + exc(e) + " cause " + exc(e.getCause()) + " " + e.getCause().getMessage());
        }
        try {
            c.newInstance("x");
        } catch (IllegalArgumentException e) {
            System.out.println("ctor arg: " + exc(e));
        }
        try {
            c.newInstance();
        } catch (IllegalArgumentException e) {
            System.out.println("ctor count: " + exc(e));
        }
        try {
            Square.class.getConstructor(int.class);
        } catch (NoSuchMethodException e) {
            System.out.println("public ctor(int): " + exc(e));
        }
        try {
            Base.class.getDeclaredConstructor().newInstance();
        } catch (InstantiationException e) {
            System.out.println("abstract: " + exc(e));
        }
        try {
            Shape.class.newInstance();
        } catch (InstantiationException e) {
            System.out.println("interface: " + exc(e));
        }
        System.out.println(new StringBuilder("x").getClass().getConstructor(String.class).newInstance("abc").reverse());
        Constructor<?> inner = NonStatic.class.getDeclaredConstructors()[0];
        System.out.println(inner.getParameterTypes().length + " " + inner.getParameterTypes()[0].getSimpleName());
    }

    static String classInfo(Class<?> c) {
        return c.getName() + " mods=" + c.getModifiers() + " anon=" + c.isAnonymousClass() + " member=" + c.isMemberClass()
                + " local=" + c.isLocalClass() + " enclosing=" + (c.getEnclosingClass() == null ? "null" : c.getEnclosingClass().getName())
                + " declaring=" + (c.getDeclaringClass() == null ? "null" : c.getDeclaringClass().getName());
    }

    static List<String> classNames(Class<?>[] cs) {
        List<String> out = new ArrayList<String>();
        for (Class<?> c : cs) {
            out.add(c.getName());
        }
        Collections.sort(out);
        return out;
    }

    Object fromCtor;

    Main() {
        fromCtor = new Object() {
        };
    }

    static void classes() throws Exception {
        section("classes");
        class Local {
        }
        Object anon = new Object() {
        };
        Runnable r = new Runnable() {
            public void run() {
            }
        };
        Class<?>[] cs = {Main.class, Square.class, Base.class, Shape.class, Inner.class, NonStatic.class, Color.class,
            Local.class, anon.getClass(), r.getClass(), new Main().fromCtor.getClass(), int.class, int[].class, Square[].class, Object.class};
        // (The JDK's own classes have public member classes Android's lack, so only Main's are listed.)
        System.out.println("public member classes: " + classNames(Main.class.getClasses()) + " "
                + classNames(Square.class.getClasses()));
        for (Class<?> c : cs) {
            System.out.println(classInfo(c) + " enclosingMethod=" + c.getEnclosingMethod() + " enclosingCtor="
                    + c.getEnclosingConstructor() + " declared=" + classNames(c.getDeclaredClasses()));
            StringBuilder sb = new StringBuilder("  interfaces:");
            for (Class<?> i : c.getInterfaces()) {
                sb.append(' ').append(i.getName());
            }
            System.out.println(sb + " super=" + c.getSuperclass());
        }
    }

    static void arrays() throws Exception {
        section("arrays");
        int[] ints = (int[]) Array.newInstance(int.class, 3);
        Array.set(ints, 0, 5);
        Array.setInt(ints, 1, 6);
        Array.setShort(ints, 2, (short) 7);
        System.out.println(Array.getLength(ints) + " " + Array.get(ints, 0) + " " + Array.getInt(ints, 1) + " "
                + Array.getLong(ints, 2) + " " + Array.getDouble(ints, 2) + " " + Array.get(ints, 0).getClass().getSimpleName());
        String[] strs = (String[]) Array.newInstance(String.class, 2);
        Array.set(strs, 1, "b");
        System.out.println(strs.getClass().getSimpleName() + " " + Array.get(strs, 0) + " " + Array.get(strs, 1));
        int[][] grid = (int[][]) Array.newInstance(int.class, 2, 3);
        System.out.println(grid.length + " " + grid[1].length + " " + Array.getLength(Array.get(grid, 0)));
        Object[] arrs = {new boolean[1], new byte[1], new short[1], new char[1], new int[1], new long[1], new float[1], new double[1]};
        for (Object a : arrs) {
            StringBuilder sb = new StringBuilder(a.getClass().getSimpleName()).append(':');
            Object[] vals = {true, (byte) 1, (short) 2, 'c', 4, 5L, 6.5f, 7.25};
            for (Object v : vals) {
                try {
                    Array.set(a, 0, v);
                    sb.append(' ').append(Array.get(a, 0));
                } catch (IllegalArgumentException e) {
                    sb.append(" x");
                }
            }
            try {
                sb.append(" int=").append(Array.getInt(a, 0));
            } catch (IllegalArgumentException e) {
                sb.append(" int=x");
            }
            try {
                sb.append(" double=").append(Array.getDouble(a, 0));
            } catch (IllegalArgumentException e) {
                sb.append(" double=x");
            }
            try {
                Array.setLong(a, 0, 9L);
                sb.append(" setLong=").append(Array.get(a, 0));
            } catch (IllegalArgumentException e) {
                sb.append(" setLong=x");
            }
            try {
                Array.setBoolean(a, 0, false);
                sb.append(" setBoolean=").append(Array.getBoolean(a, 0));
            } catch (IllegalArgumentException e) {
                sb.append(" setBoolean=x");
            }
            System.out.println(sb);
        }
        byte[] bytes = new byte[2];
        Array.setByte(bytes, 0, (byte) -1);
        char[] chars = new char[1];
        Array.setChar(chars, 0, 'q');
        float[] floats = new float[1];
        Array.setFloat(floats, 0, 0.5f);
        double[] doubles = new double[1];
        Array.setDouble(doubles, 0, 0.125);
        Array.setFloat(doubles, 0, Array.getFloat(floats, 0));
        System.out.println(Array.getByte(bytes, 0) + " " + Array.getShort(bytes, 0) + " " + Array.getChar(chars, 0) + " "
                + Array.getFloat(floats, 0) + " " + Array.getDouble(doubles, 0));
        Object[][] bad = {{null, 0}, {"str", 0}, {ints, 3}, {ints, -1}, {strs, 5}};
        for (Object[] b : bad) {
            try {
                Array.get(b[0], (Integer) b[1]);
                System.out.println("get ok");
            } catch (Exception e) {
                System.out.println("get " + b[1] + ": " + exc(e));
            }
        }
        try {
            Array.set(strs, 0, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("store Integer in String[]: " + exc(e));
        }
        try {
            Array.setInt(new Integer[1], 0, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("setInt Integer[]: " + exc(e));
        }
        try {
            Array.getInt(strs, 0);
        } catch (IllegalArgumentException e) {
            System.out.println("getInt String[]: " + exc(e));
        }
        try {
            Array.getLength("no");
        } catch (IllegalArgumentException e) {
            System.out.println("getLength: " + exc(e));
        }
        try {
            Array.newInstance(int.class, -1);
        } catch (NegativeArraySizeException e) {
            System.out.println("negative: " + exc(e));
        }
        try {
            Array.newInstance(void.class, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("void: " + exc(e));
        }
    }

    // Sub may use other.Pub's protected members through reflection.
    static class Sub extends other.Pub {
        static void run() throws Exception {
            System.out.println("Sub prot: " + other.Pub.class.getDeclaredMethod("protMethod").invoke(null)
                    + " " + other.Pub.class.getDeclaredField("prot").get(null));
            try {
                other.Pub.class.getDeclaredMethod("pkgMethod").invoke(null);
            } catch (IllegalAccessException e) {
                System.out.println("Sub pkg: " + exc(e));
            }
        }
    }

    static void access() throws Exception {
        section("access");
        Class<?> pub = other.Pub.class;
        String[] methods = {"openMethod", "pkgMethod", "protMethod", "privMethod"};
        for (String name : methods) {
            Method m = pub.getDeclaredMethod(name);
            try {
                System.out.println(name + ": " + m.invoke(null));
            } catch (IllegalAccessException e) {
                m.setAccessible(true);
                System.out.println(name + ": " + exc(e) + ", accessible: " + m.invoke(null));
            }
        }
        String[] fields = {"open", "pkg", "prot", "priv"};
        for (String name : fields) {
            Field f = pub.getDeclaredField(name);
            try {
                System.out.println(name + ": " + f.getInt(null));
            } catch (IllegalAccessException e) {
                System.out.print(name + ": " + exc(e));
                try {
                    f.set(null, 5);
                } catch (IllegalAccessException e2) {
                    System.out.print(" set " + exc(e2));
                }
                f.setAccessible(true);
                f.set(null, 5);
                System.out.println(", accessible: " + f.get(null));
            }
        }
        Sub.run();
        Constructor<?> hidden = pub.getDeclaredConstructor(int.class);
        try {
            hidden.newInstance(1);
        } catch (IllegalAccessException e) {
            hidden.setAccessible(true);
            System.out.println("private ctor: " + exc(e) + ", accessible: " + hidden.newInstance(1).getClass().getName());
        }
        System.out.println(pub.newInstance().getClass().getName());
        try {
            other.Shy.class.newInstance();
        } catch (IllegalAccessException e) {
            System.out.println("Shy: " + exc(e));
        }
        try {
            Class.forName("other.Pkg").newInstance();
        } catch (IllegalAccessException e) {
            System.out.println("Pkg: " + exc(e));
        }
        Method priv = Square.class.getDeclaredMethod("priv");
        try {
            priv.invoke(null);
        } catch (IllegalAccessException e) {
            System.out.println("nested private: " + exc(e));
        }
    }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Tag {
        String value();

        int n() default 3;

        int[] nums() default {1, 2};

        Color color() default Color.GREEN;

        Class<?> type() default Object.class;

        Nested nested() default @Nested;

        String[] names() default {};

        long big() default 1L << 40;

        char ch() default 'x';

        double d() default 0.5;

        boolean z() default true;
    }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Nested {
        byte b() default 1;

        short[] s() default {};
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @interface Inh {
        int value();
    }

    @Retention(RetentionPolicy.CLASS)
    @interface Invisible {
    }

    @Tag("class")
    @Inh(1)
    @Invisible
    static class Annotated {
        @Tag(value = "field", n = 9, nums = {}, color = Color.RED, type = String.class, nested = @Nested(b = 5, s = {7, 8}),
                names = {"a", "b"}, big = -1, ch = 'q', d = 1e10, z = false)
        public int field;

        @Tag("ctor")
        public Annotated() {
        }

        @Tag("method")
        @Deprecated
        public void method(@Tag("p0") int a, String b, @Inh(2) @Tag("p2") Object c) {
        }

        public void plain() {
        }
    }

    static class AnnotatedChild extends Annotated {
    }

    @Inh(3)
    static class AnnotatedGrandChild extends AnnotatedChild {
    }

    static String tag(Tag t) {
        if (t == null) {
            return "null";
        }
        Nested n = t.nested();
        return t.value() + " n=" + t.n() + " nums=" + java.util.Arrays.toString(t.nums()) + " color=" + t.color()
                + " type=" + t.type().getName() + " nested=" + n.b() + "/" + java.util.Arrays.toString(n.s())
                + " names=" + java.util.Arrays.toString(t.names()) + " big=" + t.big() + " ch=" + t.ch() + " d=" + t.d()
                + " z=" + t.z() + " type=" + t.annotationType().getSimpleName();
    }

    static List<String> annotationNames(Annotation[] as) {
        List<String> out = new ArrayList<String>();
        for (Annotation a : as) {
            out.add(a.annotationType().getSimpleName());
        }
        Collections.sort(out);
        return out;
    }

    static void annotations() throws Exception {
        section("annotations");
        Class<?> c = Annotated.class;
        System.out.println(tag(c.getAnnotation(Tag.class)));
        System.out.println(annotationNames(c.getAnnotations()) + " " + annotationNames(c.getDeclaredAnnotations()));
        System.out.println(c.isAnnotationPresent(Tag.class) + " " + c.isAnnotationPresent(Invisible.class) + " "
                + c.isAnnotationPresent(Deprecated.class));
        System.out.println(annotationNames(AnnotatedChild.class.getAnnotations()) + " "
                + annotationNames(AnnotatedChild.class.getDeclaredAnnotations()) + " "
                + AnnotatedChild.class.getAnnotation(Inh.class).value() + " " + AnnotatedGrandChild.class.getAnnotation(Inh.class).value());
        Field f = c.getField("field");
        System.out.println(tag(f.getAnnotation(Tag.class)));
        Method m = c.getMethod("method", int.class, String.class, Object.class);
        System.out.println(tag(m.getAnnotation(Tag.class)) + " " + annotationNames(m.getAnnotations()) + " "
                + m.isAnnotationPresent(Deprecated.class));
        Annotation[][] pa = m.getParameterAnnotations();
        System.out.println(pa.length + " " + annotationNames(pa[0]) + " " + annotationNames(pa[1]) + " " + annotationNames(pa[2])
                + " " + ((Tag) pa[0][0]).value());
        System.out.println(tag(c.getConstructor().getAnnotation(Tag.class)));
        Method plain = c.getMethod("plain");
        System.out.println(plain.getAnnotations().length + " " + plain.getAnnotation(Tag.class) + " "
                + plain.getParameterAnnotations().length);
        Tag t1 = c.getAnnotation(Tag.class);
        Tag t2 = c.getAnnotation(Tag.class);
        Tag t3 = f.getAnnotation(Tag.class);
        System.out.println(t1.equals(t2) + " " + (t1.hashCode() == t2.hashCode()) + " " + t1.equals(t3) + " " + t1.equals("x")
                + " " + (t1 instanceof Annotation));
        int[] nums = t3.nums();
        String[] names = t3.names();
        names[0] = "changed";
        System.out.println(nums.length + " " + t3.names()[0]);
        System.out.println(Tag.class.getMethod("n").getDefaultValue() + " " + Tag.class.getMethod("value").getDefaultValue() + " "
                + java.util.Arrays.toString((int[]) Tag.class.getMethod("nums").getDefaultValue()));
        System.out.println(Tag.class.isAnnotation() + " " + Tag.class.isInterface() + " " + c.isAnnotation());
        Nested plainNested = Tag.class.getMethod("nested").getDefaultValue() instanceof Nested
                ? (Nested) Tag.class.getMethod("nested").getDefaultValue() : null;
        System.out.println(plainNested.b() + " " + plainNested.equals(t1.nested()) + " " + plainNested.equals(t3.nested()));
        Inh inh = AnnotatedChild.class.getAnnotation(Inh.class);
        System.out.println(inh.hashCode() + " " + Annotated.class.getAnnotation(Inh.class).hashCode());
    }

    static class Gen<T extends Comparable<T>, U> extends ArrayList<T> implements Comparable<Gen<T, U>> {
        public List<String> list;
        public java.util.Map<String, ? extends Number> map;
        public T[] arr;
        public List<? super Integer>[] lists;
        public Gen<T, U>.Inner2<String> inner;
        public java.util.Map.Entry<String, Integer> entry;
        public int plain;
        public String[] strings;

        public Gen(java.util.Set<T> s) throws Exception {
        }

        public <V extends Number & Comparable<V>> java.util.Map<T, V> m(List<? extends V> a, U[] b, int c)
                throws java.io.IOException, IllegalStateException {
            return null;
        }

        public int compareTo(Gen<T, U> o) {
            return 0;
        }

        class Inner2<X> {
        }
    }

    static String types(Type[] ts) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ts.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(ts[i]).append(" (").append(kind(ts[i])).append(')');
        }
        return sb.append(']').toString();
    }

    static String kind(Type t) {
        if (t instanceof Class) {
            return "Class";
        } else if (t instanceof ParameterizedType) {
            return "ParameterizedType";
        } else if (t instanceof GenericArrayType) {
            return "GenericArrayType";
        } else if (t instanceof TypeVariable) {
            return "TypeVariable";
        } else if (t instanceof WildcardType) {
            return "WildcardType";
        }
        return "?";
    }

    static void generics() throws Exception {
        section("generics");
        Class<?> g = Gen.class;
        for (TypeVariable<?> v : g.getTypeParameters()) {
            System.out.println(v + " bounds=" + types(v.getBounds()) + " decl=" + v.getGenericDeclaration());
        }
        System.out.println(g.getGenericSuperclass() + " " + types(g.getGenericInterfaces()));
        System.out.println(Main.class.getGenericSuperclass() + " " + types(Main.class.getGenericInterfaces()) + " "
                + Main.class.getTypeParameters().length + " " + int[].class.getGenericSuperclass());
        String[] fields = {"list", "map", "arr", "lists", "inner", "entry", "plain", "strings"};
        for (String name : fields) {
            Type t = g.getField(name).getGenericType();
            System.out.println(name + ": " + t + " (" + kind(t) + ")");
        }
        ParameterizedType map = (ParameterizedType) g.getField("map").getGenericType();
        WildcardType w = (WildcardType) map.getActualTypeArguments()[1];
        System.out.println(map.getRawType() + " " + map.getOwnerType() + " " + types(w.getUpperBounds()) + " "
                + types(w.getLowerBounds()));
        ParameterizedType inner = (ParameterizedType) g.getField("inner").getGenericType();
        System.out.println(inner.getOwnerType() + " " + inner.getRawType() + " " + types(inner.getActualTypeArguments()));
        ParameterizedType entry = (ParameterizedType) g.getField("entry").getGenericType();
        System.out.println(entry.getOwnerType() + " " + entry.getRawType());
        GenericArrayType arr = (GenericArrayType) g.getField("arr").getGenericType();
        TypeVariable<?> t = (TypeVariable<?>) arr.getGenericComponentType();
        System.out.println(t + " " + t.getGenericDeclaration() + " " + types(t.getBounds()) + " "
                + t.equals(g.getTypeParameters()[0]) + " " + (t.hashCode() == g.getTypeParameters()[0].hashCode()));
        Method m = null;
        for (Method x : g.getDeclaredMethods()) {
            if (x.getName().equals("m")) {
                m = x;
            }
        }
        System.out.println(m);
        System.out.println(types(m.getGenericParameterTypes()) + " ret=" + m.getGenericReturnType() + " exc="
                + types(m.getGenericExceptionTypes()) + " " + types(m.getExceptionTypes()));
        for (TypeVariable<?> v : m.getTypeParameters()) {
            System.out.println(v + " bounds=" + types(v.getBounds()) + " decl=" + v.getGenericDeclaration());
        }
        ParameterizedType ret = (ParameterizedType) m.getGenericReturnType();
        TypeVariable<?> retV = (TypeVariable<?>) ret.getActualTypeArguments()[1];
        System.out.println(retV.getGenericDeclaration().equals(m) + " " + types(retV.getBounds()));
        Constructor<?> c = g.getConstructor(java.util.Set.class);
        System.out.println(c + " " + types(c.getGenericParameterTypes()) + " " + types(c.getExceptionTypes()));
        Method compareTo = g.getMethod("compareTo", Gen.class);
        System.out.println(types(compareTo.getGenericParameterTypes()) + " " + compareTo.getGenericReturnType()
                + " " + types(Square.class.getMethod("add", long.class, int.class).getGenericParameterTypes()));
        Type l1 = g.getField("list").getGenericType();
        Type l2 = g.getField("list").getGenericType();
        System.out.println(l1.equals(l2) + " " + (l1.hashCode() == l2.hashCode()) + " " + l1.equals(g.getField("map").getGenericType())
                + " " + arr.equals(g.getField("arr").getGenericType()));
        System.out.println(Square.class.getConstructor().getExceptionTypes().length + " "
                + Object.class.getMethod("wait", long.class).getExceptionTypes()[0].getName());
    }

    @Retention(RetentionPolicy.RUNTIME)
    @java.lang.annotation.Repeatable(Reps.class)
    @interface Rep {
        String value();
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @interface Reps {
        Rep[] value();
    }

    @Rep("a")
    @Rep("b")
    static class Repeated {
        @Rep("m1")
        @Rep("m2")
        public void m() {
        }
    }

    static class RepeatedChild extends Repeated {
    }

    @Rep("c")
    static class RepeatedOnce {
    }

    static String reps(Rep[] rs) {
        StringBuilder sb = new StringBuilder(rs.getClass().getSimpleName()).append(':');
        for (Rep r : rs) {
            sb.append(' ').append(r.value());
        }
        return sb.toString();
    }

    static void repeatable() throws Exception {
        section("repeatable");
        Class<?>[] cs = {Repeated.class, RepeatedChild.class, RepeatedOnce.class};
        for (Class<?> c : cs) {
            System.out.println(c.getSimpleName() + " byType " + reps(c.getAnnotationsByType(Rep.class)) + " declared "
                    + reps(c.getDeclaredAnnotationsByType(Rep.class)) + " Reps " + c.getAnnotationsByType(Reps.class).length
                    + " declared Reps " + (c.getDeclaredAnnotation(Reps.class) != null) + " Rep " + (c.getDeclaredAnnotation(Rep.class) != null));
        }
        Method m = Repeated.class.getMethod("m");
        System.out.println(reps(m.getAnnotationsByType(Rep.class)) + " " + reps(m.getDeclaredAnnotationsByType(Rep.class))
                + " " + (m.getDeclaredAnnotation(Reps.class) != null));
        Field f = Annotated.class.getField("field");
        System.out.println(f.getAnnotationsByType(Tag.class).length + " " + f.getDeclaredAnnotationsByType(Rep.class).length
                + " " + f.getDeclaredAnnotation(Tag.class).value());
    }

    static void enums() throws Exception {
        section("enums");
        System.out.println(Enum.valueOf(Color.class, "GREEN").ordinal());
        Method valueOf = Color.class.getMethod("valueOf", String.class);
        System.out.println(valueOf.invoke(null, "RED") + " " + Modifier.isStatic(valueOf.getModifiers()));
        try {
            valueOf.invoke(null, "BLUE");
        } catch (InvocationTargetException e) {
            System.out.println("BLUE: " + exc(e.getCause()));
        }
        Object[] values = (Object[]) Color.class.getMethod("values").invoke(null);
        System.out.println(values.length + " " + values[1]);
        Field red = Color.class.getField("RED");
        System.out.println(red.get(null) + " " + red.isEnumConstant() + " " + Color.class.isEnum());
        System.out.println(Color.class.getMethod("ordinal").invoke(Color.GREEN));
    }
}
