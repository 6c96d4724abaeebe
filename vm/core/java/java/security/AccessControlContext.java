package java.security;

/** A security context; as on Android, without meaning: nothing is checked. */
public final class AccessControlContext {
    public AccessControlContext(ProtectionDomain[] context) {
    }
}
