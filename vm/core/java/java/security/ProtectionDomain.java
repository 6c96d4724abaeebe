package java.security;

/** A set of permissions; as on Android, without meaning: nothing is checked. */
public class ProtectionDomain {
}
