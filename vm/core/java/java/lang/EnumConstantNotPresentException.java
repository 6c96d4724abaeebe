package java.lang;

/** Thrown when an enum constant named in a class file does not exist. */
@SuppressWarnings("rawtypes")
public class EnumConstantNotPresentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Class<? extends Enum> enumType;
    private final String constantName;

    public EnumConstantNotPresentException(Class<? extends Enum> enumType, String constantName) {
        super(enumType.getName() + "." + constantName);
        this.enumType = enumType;
        this.constantName = constantName;
    }

    public Class<? extends Enum> enumType() {
        return enumType;
    }

    public String constantName() {
        return constantName;
    }
}
