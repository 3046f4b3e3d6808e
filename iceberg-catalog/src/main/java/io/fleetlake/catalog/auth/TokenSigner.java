package io.fleetlake.catalog.auth;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.catalog.CatalogRole;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The catalog's access tokens: JSON Web Tokens (RFC 7519) in the compact JWS form, signed with HMAC-SHA256 ({@code
 * HS256}) by a key only this server knows. Claims: {@code iss} {@value #ISSUER}, {@code sub} the client id, {@code
 * role}, {@code iat} and {@code exp} (seconds), {@code jti} a random id. Iceberg's client reads {@code exp} to refresh
 * the token before it expires.
 *
 * <p>{@link #verify} accepts only a token of exactly this header, whose signature matches (compared in constant time)
 * and which has not expired: no {@code alg} negotiation, so neither {@code none} nor another key type is ever tried.
 */
public final class TokenSigner {
    static final String ISSUER = "fleet-catalog";
    private static final String ALGORITHM = "HmacSHA256";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder BASE64_DECODER = Base64.getUrlDecoder();
    private static final String HEADER =
            BASE64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    private static final int RANDOM_KEY_BYTES = 32;

    private final SecretKeySpec key;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    TokenSigner(byte[] key, Clock clock) {
        requireNonNull(key, "key is null");
        if (key.length < RANDOM_KEY_BYTES) {
            throw new IllegalArgumentException("The signing key needs at least " + RANDOM_KEY_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A signer with the configured key (its UTF-8 bytes). */
    public static TokenSigner withKey(String key, Clock clock) {
        requireNonNull(key, "key is null");
        return new TokenSigner(key.getBytes(StandardCharsets.UTF_8), clock);
    }

    /** A signer with a random key: its tokens are worthless after this process ends. */
    public static TokenSigner withRandomKey(Clock clock) {
        byte[] key = new byte[RANDOM_KEY_BYTES];
        new SecureRandom().nextBytes(key);
        return new TokenSigner(key, clock);
    }

    /** A token for {@code principal}, valid for {@code lifetime} from now. */
    public String issue(CatalogPrincipal principal, Duration lifetime) {
        requireNonNull(principal, "principal is null");
        requireNonNull(lifetime, "lifetime is null");
        Instant now = clock.instant();
        // Rounded up to the second: a client that counts expires_in from when it asked is never later than exp.
        Instant expiry = now.plus(lifetime);
        long expires = expiry.getEpochSecond() + (expiry.getNano() > 0 ? 1 : 0);
        byte[] id = new byte[12];
        random.nextBytes(id);
        ObjectNode claims = JSON.createObjectNode()
                .put("iss", ISSUER)
                .put("sub", principal.clientId())
                .put("role", principal.role().label())
                .put("iat", now.getEpochSecond())
                .put("exp", expires)
                .put("jti", BASE64.encodeToString(id));
        String signed = HEADER + "." + BASE64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8));
        return signed + "." + BASE64.encodeToString(sign(signed));
    }

    /** The principal of a valid token; empty when it is malformed, not signed by this key, or expired. */
    public Optional<CatalogPrincipal> verify(String token) {
        requireNonNull(token, "token is null");
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || !parts[0].equals(HEADER)) {
            return Optional.empty();
        }
        byte[] signature;
        try {
            signature = BASE64_DECODER.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!MessageDigest.isEqual(signature, sign(parts[0] + "." + parts[1]))) {
            return Optional.empty();
        }
        JsonNode claims;
        try {
            claims = JSON.readTree(BASE64_DECODER.decode(parts[1]));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!ISSUER.equals(claims.path("iss").asText())
                || !claims.path("exp").canConvertToLong()
                || clock.instant().getEpochSecond() >= claims.path("exp").asLong()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CatalogPrincipal(
                    claims.path("sub").asText(),
                    CatalogRole.named(claims.path("role").asText())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private byte[] sign(String content) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(content.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("This JDK cannot compute " + ALGORITHM, e);
        }
    }
}
