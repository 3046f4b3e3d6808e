package io.fleetlake.redis;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The content of a Redis ACL file ({@code aclfile}) granting every {@link RedisRole} with its password, and switching
 * the {@code default} user off so that a client without credentials gets {@code NOAUTH}. The file holds the passwords'
 * SHA-256 ({@code #<hex>}, which Redis accepts in place of a password), not the passwords; it is still written
 * owner-only, as a hash of a random 24-byte secret is as good as the secret for nobody but Redis.
 */
public final class RedisAcl {
    private RedisAcl() {}

    /**
     * @param passwords the password of each role; every role needs one
     * @throws IllegalArgumentException when a role has no password, or one Redis could not read back from the file
     */
    public static String render(Map<RedisRole, String> passwords) {
        requireNonNull(passwords, "passwords is null");
        Map<RedisRole, String> byRole = new EnumMap<>(RedisRole.class);
        byRole.putAll(passwords);
        StringBuilder acl = new StringBuilder();
        // No password can log in as default: switched off, its password list emptied, nothing granted.
        acl.append("user default off resetpass resetkeys resetchannels -@all\n");
        for (RedisRole role : RedisRole.values()) {
            String password = byRole.get(role);
            if (password == null || password.isEmpty()) {
                throw new IllegalArgumentException("No password for the Redis role " + role.user());
            }
            acl.append("user ")
                    .append(role.user())
                    .append(" on #")
                    .append(sha256(password))
                    .append(' ')
                    .append(role.rules())
                    .append('\n');
        }
        return acl.toString();
    }

    /** The hex SHA-256 of a password, as Redis compares it ({@code ACL GETUSER} shows the same). */
    static String sha256(String password) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }
}
