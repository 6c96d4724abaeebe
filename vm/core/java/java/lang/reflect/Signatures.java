package java.lang.reflect;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * Parses generic signatures (the class file's Signature attribute, which
 * DEX keeps in dalvik.annotation.Signature) into Types. scope is the
 * class, method or constructor the signature belongs to: type variables
 * are looked up from it outwards.
 */
final class Signatures {
    private final String s;
    private int pos;
    private final GenericDeclaration scope;

    private Signatures(String s, GenericDeclaration scope) {
        this.s = s;
        this.scope = scope;
    }

    /** The parts of a class or method signature. */
    static final class Parsed {
        TypeVariable<?>[] typeParameters = new TypeVariable<?>[0];
        Type superclass;
        Type[] interfaces;
        Type[] parameters;
        Type returnType;
        Type[] exceptions;
    }

    static Parsed parseClass(String sig, Class<?> c) {
        Signatures p = new Signatures(sig, c);
        Parsed out = new Parsed();
        out.typeParameters = p.typeParameters();
        out.superclass = p.fieldType();
        ArrayList<Type> ifaces = new ArrayList<Type>();
        while (p.pos < sig.length()) {
            ifaces.add(p.fieldType());
        }
        out.interfaces = ifaces.toArray(new Type[ifaces.size()]);
        return out;
    }

    static Parsed parseMethod(String sig, GenericDeclaration m) {
        Signatures p = new Signatures(sig, m);
        Parsed out = new Parsed();
        out.typeParameters = p.typeParameters();
        p.expect('(');
        ArrayList<Type> params = new ArrayList<Type>();
        while (p.peek() != ')') {
            params.add(p.type());
        }
        p.pos++;
        out.parameters = params.toArray(new Type[params.size()]);
        out.returnType = p.type();
        ArrayList<Type> exceptions = new ArrayList<Type>();
        while (p.pos < sig.length() && p.peek() == '^') {
            p.pos++;
            exceptions.add(p.fieldType());
        }
        out.exceptions = exceptions.toArray(new Type[exceptions.size()]);
        return out;
    }

    static Type parseField(String sig, Class<?> c) {
        return new Signatures(sig, c).type();
    }

    private char peek() {
        if (pos >= s.length()) {
            throw new GenericSignatureFormatError("signature ends early: " + s);
        }
        return s.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw new GenericSignatureFormatError("expected '" + c + "' at " + pos + " in " + s);
        }
        pos++;
    }

    private String identifier() {
        int start = pos;
        while (pos < s.length() && ";<>.:".indexOf(s.charAt(pos)) < 0) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private TypeVariable<?>[] typeParameters() {
        ArrayList<TypeVariable<?>> out = new ArrayList<TypeVariable<?>>();
        if (pos < s.length() && peek() == '<') {
            pos++;
            while (peek() != '>') {
                String name = identifier();
                ArrayList<Type> bounds = new ArrayList<Type>();
                while (peek() == ':') {
                    pos++;
                    char c = peek();
                    if (c == 'L' || c == '[' || c == 'T') {
                        bounds.add(fieldType());
                    }
                }
                if (bounds.isEmpty()) {
                    bounds.add(Object.class);
                }
                out.add(new TypeVariableImpl(name, scope, bounds.toArray(new Type[bounds.size()])));
            }
            pos++;
        }
        return out.toArray(new TypeVariable<?>[out.size()]);
    }

    private Type type() {
        switch (peek()) {
            case 'Z':
                pos++;
                return boolean.class;
            case 'B':
                pos++;
                return byte.class;
            case 'S':
                pos++;
                return short.class;
            case 'C':
                pos++;
                return char.class;
            case 'I':
                pos++;
                return int.class;
            case 'J':
                pos++;
                return long.class;
            case 'F':
                pos++;
                return float.class;
            case 'D':
                pos++;
                return double.class;
            case 'V':
                pos++;
                return void.class;
            default:
                return fieldType();
        }
    }

    private Type fieldType() {
        char c = peek();
        if (c == '[') {
            pos++;
            Type component = type();
            if (component instanceof Class) {
                return Array.newInstance((Class<?>) component, 0).getClass();
            }
            return new GenericArrayTypeImpl(component);
        }
        if (c == 'T') {
            pos++;
            String name = identifier();
            expect(';');
            return new TypeVariableImpl(name, scope, null);
        }
        expect('L');
        String name = identifier().replace('/', '.');
        Type current = null;
        while (true) {
            Class<?> raw = load(name);
            Type[] args = peek() == '<' ? typeArguments() : null;
            if (args != null || current instanceof ParameterizedType) {
                Type owner = current != null ? current : raw.getDeclaringClass();
                current = new ParameterizedTypeImpl(raw, args == null ? new Type[0] : args, owner);
            } else {
                current = raw;
            }
            if (peek() == '.') {
                pos++;
                name = name + "$" + identifier();
                continue;
            }
            expect(';');
            return current;
        }
    }

    private Type[] typeArguments() {
        expect('<');
        ArrayList<Type> out = new ArrayList<Type>();
        while (peek() != '>') {
            char c = peek();
            if (c == '*') {
                pos++;
                out.add(new WildcardTypeImpl(new Type[] {Object.class}, new Type[0]));
            } else if (c == '+') {
                pos++;
                out.add(new WildcardTypeImpl(new Type[] {fieldType()}, new Type[0]));
            } else if (c == '-') {
                pos++;
                out.add(new WildcardTypeImpl(new Type[] {Object.class}, new Type[] {fieldType()}));
            } else {
                out.add(fieldType());
            }
        }
        pos++;
        return out.toArray(new Type[out.size()]);
    }

    /** Loads a class named in a signature without initialising it, as the platform does. */
    private static Class<?> load(String name) {
        Class<?> c = VMReflection.loadType("L" + name.replace('.', '/') + ";");
        if (c == null) {
            throw new TypeNotPresentException(name, null);
        }
        return c;
    }

    /** The Java source name of a type, as Type.getTypeName gives it. */
    static String typeName(Type t) {
        return t instanceof Class ? ((Class<?>) t).getTypeName() : t.toString();
    }

    /** The declaration that encloses d for type variable lookup, or null. */
    private static GenericDeclaration outer(GenericDeclaration d) {
        if (d instanceof Executable) {
            return ((Executable) d).getDeclaringClass();
        }
        if (d instanceof Class) {
            Class<?> c = (Class<?>) d;
            if (Modifier.isStatic(c.getModifiers())) {
                return null;
            }
            return c.getEnclosingClass();
        }
        return null;
    }

    /** Finds the declared type variable called name, visible from scope. */
    static TypeVariable<?> resolve(String name, GenericDeclaration scope) {
        for (GenericDeclaration d = scope; d != null; d = outer(d)) {
            for (TypeVariable<?> v : d.getTypeParameters()) {
                if (v.getName().equals(name)) {
                    return v;
                }
            }
        }
        return null;
    }
}

final class ParameterizedTypeImpl implements ParameterizedType {
    private final Class<?> raw;
    private final Type[] args;
    private final Type owner;

    ParameterizedTypeImpl(Class<?> raw, Type[] args, Type owner) {
        this.raw = raw;
        this.args = args;
        this.owner = owner;
    }

    public Type[] getActualTypeArguments() {
        return args.clone();
    }

    public Type getRawType() {
        return raw;
    }

    public Type getOwnerType() {
        return owner;
    }

    public boolean equals(Object o) {
        if (!(o instanceof ParameterizedType)) {
            return false;
        }
        ParameterizedType p = (ParameterizedType) o;
        Type po = p.getOwnerType();
        return raw.equals(p.getRawType()) && (owner == null ? po == null : owner.equals(po))
                && Arrays.equals(args, p.getActualTypeArguments());
    }

    public int hashCode() {
        return Arrays.hashCode(args) ^ (owner == null ? 0 : owner.hashCode()) ^ raw.hashCode();
    }

    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (owner != null) {
            sb.append(owner instanceof Class ? ((Class<?>) owner).getName() : owner.toString()).append('$');
            if (owner instanceof ParameterizedType) {
                String prefix = ((Class<?>) ((ParameterizedType) owner).getRawType()).getName() + "$";
                sb.append(raw.getName().substring(prefix.length()));
            } else {
                sb.append(raw.getSimpleName());
            }
        } else {
            sb.append(raw.getName());
        }
        if (args.length > 0) {
            sb.append('<');
            for (int i = 0; i < args.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(Signatures.typeName(args[i]));
            }
            sb.append('>');
        }
        return sb.toString();
    }
}

final class GenericArrayTypeImpl implements GenericArrayType {
    private final Type component;

    GenericArrayTypeImpl(Type component) {
        this.component = component;
    }

    public Type getGenericComponentType() {
        return component;
    }

    public boolean equals(Object o) {
        return o instanceof GenericArrayType && component.equals(((GenericArrayType) o).getGenericComponentType());
    }

    public int hashCode() {
        return component.hashCode();
    }

    public String toString() {
        return Signatures.typeName(component) + "[]";
    }
}

final class WildcardTypeImpl implements WildcardType {
    private final Type[] upper;
    private final Type[] lower;

    WildcardTypeImpl(Type[] upper, Type[] lower) {
        this.upper = upper;
        this.lower = lower;
    }

    public Type[] getUpperBounds() {
        return upper.clone();
    }

    public Type[] getLowerBounds() {
        return lower.clone();
    }

    public boolean equals(Object o) {
        if (!(o instanceof WildcardType)) {
            return false;
        }
        WildcardType w = (WildcardType) o;
        return Arrays.equals(upper, w.getUpperBounds()) && Arrays.equals(lower, w.getLowerBounds());
    }

    public int hashCode() {
        return Arrays.hashCode(upper) ^ Arrays.hashCode(lower);
    }

    public String toString() {
        Type[] bounds;
        String word;
        if (lower.length > 0) {
            bounds = lower;
            word = "? super ";
        } else if (upper.length == 0 || upper[0] == Object.class) {
            return "?";
        } else {
            bounds = upper;
            word = "? extends ";
        }
        StringBuilder sb = new StringBuilder(word);
        for (int i = 0; i < bounds.length; i++) {
            if (i > 0) {
                sb.append(" & ");
            }
            sb.append(Signatures.typeName(bounds[i]));
        }
        return sb.toString();
    }
}

/**
 * A type variable: declared ones know their bounds; uses (bounds null)
 * find their declaration from the scope they appear in when asked.
 */
final class TypeVariableImpl<D extends GenericDeclaration> implements TypeVariable<D> {
    private final String name;
    private final GenericDeclaration scope;
    private final Type[] bounds;

    TypeVariableImpl(String name, GenericDeclaration scope, Type[] bounds) {
        this.name = name;
        this.scope = scope;
        this.bounds = bounds;
    }

    private TypeVariable<?> declared() {
        if (bounds != null) {
            return this;
        }
        TypeVariable<?> v = Signatures.resolve(name, scope);
        if (v == null) {
            throw new TypeNotPresentException(name, null);
        }
        return v;
    }

    public Type[] getBounds() {
        return bounds != null ? bounds.clone() : declared().getBounds();
    }

    @SuppressWarnings("unchecked")
    public D getGenericDeclaration() {
        return bounds != null ? (D) scope : (D) declared().getGenericDeclaration();
    }

    public String getName() {
        return name;
    }

    public boolean equals(Object o) {
        if (!(o instanceof TypeVariable)) {
            return false;
        }
        TypeVariable<?> v = (TypeVariable<?>) o;
        return name.equals(v.getName()) && getGenericDeclaration().equals(v.getGenericDeclaration());
    }

    public int hashCode() {
        return getGenericDeclaration().hashCode() ^ name.hashCode();
    }

    public String toString() {
        return name;
    }
}
