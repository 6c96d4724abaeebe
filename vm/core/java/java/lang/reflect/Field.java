package java.lang.reflect;

/** A field of a class, static or instance, readable and writable through reflection. */
public final class Field extends AccessibleObject implements Member {
    private final Class<?> declaringClass;
    private final int slot;
    private final String name;
    private final int modifiers;
    private Class<?> type;

    Field(Class<?> declaringClass, int slot) {
        this.declaringClass = declaringClass;
        this.slot = slot;
        this.name = VMReflection.name(declaringClass, slot, true);
        this.modifiers = VMReflection.modifiers(declaringClass, slot, true);
    }

    public Class<?> getDeclaringClass() {
        return declaringClass;
    }

    public String getName() {
        return name;
    }

    public int getModifiers() {
        return modifiers;
    }

    public boolean isSynthetic() {
        return (modifiers & Modifier.SYNTHETIC) != 0;
    }

    public boolean isEnumConstant() {
        return (modifiers & Modifier.ENUM) != 0;
    }

    /**
     * Returns the field's byte offset in its object (for statics, in the
     * Class object), as Android's Field.getOffset does; layout tests use it.
     */
    public int getOffset() {
        return VMReflection.offset(declaringClass, slot);
    }

    public Class<?> getType() {
        if (type == null) {
            type = VMReflection.fieldType(declaringClass, slot);
        }
        return type;
    }

    public Type getGenericType() {
        String sig = VMReflection.signature(declaringClass, 1, slot);
        return sig == null ? getType() : Signatures.parseField(sig, declaringClass);
    }

    public String toGenericString() {
        String mods = Modifier.toString(modifiers & Modifier.fieldModifiers());
        return (mods.length() > 0 ? mods + " " : "") + Signatures.typeName(getGenericType()) + " "
                + declaringClass.getTypeName() + "." + name;
    }

    /** Checks the receiver of an instance field; static fields ignore it. */
    private void checkReceiver(Object obj) {
        if (Modifier.isStatic(modifiers)) {
            return;
        }
        if (obj == null) {
            throw new NullPointerException("null receiver");
        }
        if (!declaringClass.isInstance(obj)) {
            throw new IllegalArgumentException("Expected receiver of type " + declaringClass.getName()
                    + ", but got " + obj.getClass().getName());
        }
    }

    public Object get(Object obj) throws IllegalArgumentException, IllegalAccessException {
        checkReceiver(obj);
        checkAccess(declaringClass, modifiers, obj, "field");
        Class<?> t = getType();
        if (t.isPrimitive()) {
            return VMReflection.box(VMReflection.getPrim(declaringClass, slot, obj), VMReflection.kind(t));
        }
        return VMReflection.getRef(declaringClass, slot, obj);
    }

    /** Reads a primitive field as raw bits of kind to, widening its value. */
    private long getRaw(Object obj, int to) throws IllegalAccessException {
        checkReceiver(obj);
        checkAccess(declaringClass, modifiers, obj, "field");
        int from = VMReflection.kind(getType());
        if (from < 0 || !VMReflection.widens(from, to)) {
            throw new IllegalArgumentException("field " + this + " has type " + getType().getName()
                    + ", cannot be converted to " + KIND_NAMES[to]);
        }
        return VMReflection.widen(VMReflection.getPrim(declaringClass, slot, obj), from, to);
    }

    private static final String[] KIND_NAMES = {"boolean", "byte", "short", "char", "int", "long", "float", "double"};

    public boolean getBoolean(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return getRaw(obj, VMReflection.BOOLEAN) != 0;
    }

    public byte getByte(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return (byte) getRaw(obj, VMReflection.BYTE);
    }

    public short getShort(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return (short) getRaw(obj, VMReflection.SHORT);
    }

    public char getChar(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return (char) getRaw(obj, VMReflection.CHAR);
    }

    public int getInt(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return (int) getRaw(obj, VMReflection.INT);
    }

    public long getLong(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return getRaw(obj, VMReflection.LONG);
    }

    public float getFloat(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return Float.intBitsToFloat((int) getRaw(obj, VMReflection.FLOAT));
    }

    public double getDouble(Object obj) throws IllegalArgumentException, IllegalAccessException {
        return Double.longBitsToDouble(getRaw(obj, VMReflection.DOUBLE));
    }

    private void checkWritable(Object obj) throws IllegalAccessException {
        checkReceiver(obj);
        checkAccess(declaringClass, modifiers, obj, "field");
        if (Modifier.isFinal(modifiers) && !override) {
            throw new IllegalAccessException("Cannot set final field: " + this);
        }
    }

    public void set(Object obj, Object value) throws IllegalArgumentException, IllegalAccessException {
        checkWritable(obj);
        Class<?> t = getType();
        if (t.isPrimitive()) {
            int to = VMReflection.kind(t);
            int from = VMReflection.boxKind(value);
            if (from < 0 || !VMReflection.widens(from, to)) {
                throw new IllegalArgumentException("field " + this + " has type " + t.getName()
                        + ", got " + VMReflection.typeName(value));
            }
            VMReflection.setPrim(declaringClass, slot, obj, VMReflection.widen(VMReflection.rawOf(value, from), from, to));
            return;
        }
        if (value != null && !t.isInstance(value)) {
            throw new IllegalArgumentException("field " + this + " has type " + t.getName()
                    + ", got " + VMReflection.typeName(value));
        }
        VMReflection.setRef(declaringClass, slot, obj, value);
    }

    /** Writes raw bits of kind from to a primitive field, widening them. */
    private void setRaw(Object obj, long raw, int from) throws IllegalAccessException {
        checkWritable(obj);
        int to = VMReflection.kind(getType());
        if (to < 0 || !VMReflection.widens(from, to)) {
            throw new IllegalArgumentException("field " + this + " has type " + getType().getName()
                    + ", got " + KIND_NAMES[from]);
        }
        VMReflection.setPrim(declaringClass, slot, obj, VMReflection.widen(raw, from, to));
    }

    public void setBoolean(Object obj, boolean z) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, z ? 1 : 0, VMReflection.BOOLEAN);
    }

    public void setByte(Object obj, byte b) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, b, VMReflection.BYTE);
    }

    public void setShort(Object obj, short s) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, s, VMReflection.SHORT);
    }

    public void setChar(Object obj, char c) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, c, VMReflection.CHAR);
    }

    public void setInt(Object obj, int i) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, i, VMReflection.INT);
    }

    public void setLong(Object obj, long l) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, l, VMReflection.LONG);
    }

    public void setFloat(Object obj, float f) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, Float.floatToRawIntBits(f) & 0xffffffffL, VMReflection.FLOAT);
    }

    public void setDouble(Object obj, double d) throws IllegalArgumentException, IllegalAccessException {
        setRaw(obj, Double.doubleToRawLongBits(d), VMReflection.DOUBLE);
    }

    public boolean equals(Object o) {
        if (!(o instanceof Field)) {
            return false;
        }
        Field f = (Field) o;
        return f.declaringClass == declaringClass && f.slot == slot;
    }

    public int hashCode() {
        return declaringClass.getName().hashCode() ^ name.hashCode();
    }

    public String toString() {
        StringBuilder sb = new StringBuilder();
        String mods = Modifier.toString(modifiers & Modifier.fieldModifiers());
        if (mods.length() > 0) {
            sb.append(mods).append(' ');
        }
        sb.append(getType().getTypeName()).append(' ');
        sb.append(declaringClass.getTypeName()).append('.').append(name);
        return sb.toString();
    }

    public java.lang.annotation.Annotation[] getDeclaredAnnotations() {
        return AnnotationHandler.toAnnotations(VMReflection.annotations(declaringClass, 1, slot, 0));
    }
}
