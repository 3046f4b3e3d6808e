package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.trino.TrinoUser;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Trino's password file ({@code file.password-file} of the {@code file} password authenticator): one {@code
 * user:iterations:salt:hash} line per user, PBKDF2 as Trino 476 checks it (HMAC-SHA1, salt and hash in lower-case hex,
 * the hash as long as written). The file holds no password; Trino caches a successful check, so the iterations are
 * paid once per password and not per query.
 */
public final class TrinoPasswordFile {
    /** Trino refuses fewer than 1,000; ten times that slows guessing a human-chosen password (compose). */
    static final int ITERATIONS = 10_000;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA1";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    private static final HexFormat HEX = HexFormat.of();

    private TrinoPasswordFile() {}

    /** The file's content for every user of {@code passwords}, in the order of {@link TrinoUser}. */
    public static String render(Map<TrinoUser, String> passwords, SecureRandom random) {
        requireNonNull(passwords, "passwords is null");
        requireNonNull(random, "random is null");
        StringBuilder file = new StringBuilder();
        for (TrinoUser user : TrinoUser.values()) {
            String password = passwords.get(user);
            if (password != null) {
                file.append(user.userName())
                        .append(':')
                        .append(hash(password, random))
                        .append('\n');
            }
        }
        return file.toString();
    }

    /** {@code iterations:salt:hash} for one password. */
    static String hash(String password, SecureRandom random) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return ITERATIONS + ":" + HEX.formatHex(salt) + ":" + HEX.formatHex(derive(password, salt, ITERATIONS));
    }

    /** Whether {@code password} matches an {@code iterations:salt:hash} entry, as Trino decides it. */
    static boolean matches(String password, String entry) {
        String[] parts = entry.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("Not an iterations:salt:hash entry");
        }
        byte[] expected = HEX.parseHex(parts[2]);
        byte[] actual = derive(password, HEX.parseHex(parts[1]), Integer.parseInt(parts[0]), expected.length);
        return java.security.MessageDigest.isEqual(expected, actual);
    }

    private static byte[] derive(String password, byte[] salt, int iterations) {
        return derive(password, salt, iterations, HASH_BYTES);
    }

    private static byte[] derive(String password, byte[] salt, int iterations, int length) {
        try {
            PBEKeySpec specification = new PBEKeySpec(password.toCharArray(), salt, iterations, length * 8);
            return SecretKeyFactory.getInstance(ALGORITHM)
                    .generateSecret(specification)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JDK", e);
        }
    }
}
