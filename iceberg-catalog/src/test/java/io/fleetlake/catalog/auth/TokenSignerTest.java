package io.fleetlake.catalog.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.catalog.CatalogRole;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class TokenSignerTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";
    private static final Instant NOW = Instant.parse("2026-12-06T22:00:00Z");
    private static final CatalogPrincipal WRITER = new CatalogPrincipal("fleet-writer", CatalogRole.WRITER);

    private final TokenSigner signer = TokenSigner.withKey(KEY, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aTokenNamesItsClientAndRoleUntilItExpires() {
        String token = signer.issue(WRITER, Duration.ofMinutes(10));

        assertThat(signer.verify(token)).contains(WRITER);
        assertThat(at(NOW.plus(Duration.ofMinutes(10)).minusSeconds(1)).verify(token))
                .contains(WRITER);
        assertThat(at(NOW.plus(Duration.ofMinutes(10))).verify(token)).isEmpty();
    }

    @Test
    void theClaimsAreTheOnesIcebergReadsToRefresh() {
        String token = signer.issue(WRITER, Duration.ofMinutes(10));
        String claims = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);

        assertThat(claims)
                .contains("\"sub\":\"fleet-writer\"", "\"role\":\"writer\"", "\"iss\":\"fleet-catalog\"")
                .contains("\"exp\":" + NOW.plus(Duration.ofMinutes(10)).getEpochSecond());
    }

    @Test
    void anotherKeyAnEditedRoleOrAnotherAlgorithmIsRefused() {
        String token = signer.issue(WRITER, Duration.ofMinutes(10));
        String[] parts = token.split("\\.");
        String admin = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("\"writer\"", "\"admin\"")
                        .getBytes(StandardCharsets.UTF_8));
        String none = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(TokenSigner.withKey("another-key-of-thirty-two-characters", Clock.fixed(NOW, ZoneOffset.UTC))
                        .verify(token))
                .isEmpty();
        assertThat(signer.verify(parts[0] + "." + admin + "." + parts[2])).isEmpty();
        assertThat(signer.verify(none + "." + parts[1] + ".")).isEmpty();
        assertThat(signer.verify("not-a-token")).isEmpty();
        assertThat(signer.verify(parts[0] + "." + parts[1] + ".%%%")).isEmpty();
    }

    @Test
    void aRandomKeyDiffersPerSigner() {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        String token = TokenSigner.withRandomKey(clock).issue(WRITER, Duration.ofMinutes(1));

        assertThat(TokenSigner.withRandomKey(clock).verify(token)).isEmpty();
    }

    private static TokenSigner at(Instant instant) {
        return TokenSigner.withKey(KEY, Clock.fixed(instant, ZoneOffset.UTC));
    }
}
