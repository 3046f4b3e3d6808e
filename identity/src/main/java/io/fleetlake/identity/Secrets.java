package io.fleetlake.identity;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.Base64;

/** Generates principals' secrets: 256 random bits, URL-safe Base64 without padding (43 characters). */
public final class Secrets {
    private static final int BYTES = 32;

    private Secrets() {}

    public static String generate(SecureRandom random) {
        requireNonNull(random, "random is null");
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
