package io.fleetlake.catalog.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grants Iceberg's clients use: client credentials first, then token exchange to refresh. */
class OAuth2AuthorityTest {
    @TempDir
    Path directory;

    private CatalogClients clients;
    private IssuedSecret maintainer;
    private OAuth2Authority authority;

    @BeforeEach
    void clients() {
        clients = new CatalogClients(directory.resolve("clients.properties"));
        maintainer = clients.issue("fleet-maintainer", CatalogRole.MAINTAINER);
        authority = new OAuth2Authority(clients, TokenSigner.withRandomKey(Clock.systemUTC()), Duration.ofMinutes(5));
    }

    @Test
    void clientCredentialsInTheFormOrAsBasicGetAToken() {
        OAuthTokenResponse form = authority.token(
                Map.of(
                        "grant_type",
                        "client_credentials",
                        "client_id",
                        maintainer.name(),
                        "client_secret",
                        maintainer.secret(),
                        "scope",
                        "catalog"),
                Optional.empty());
        OAuthTokenResponse basic =
                authority.token(Map.of("grant_type", "client_credentials"), Optional.of(basic(maintainer.secret())));

        for (OAuthTokenResponse response : new OAuthTokenResponse[] {form, basic}) {
            assertThat(response.tokenType()).isEqualTo("bearer");
            assertThat(response.expiresInSeconds()).isEqualTo(300);
            assertThat(response.scopes()).containsExactly("catalog");
            assertThat(authority.authenticate(Optional.of("Bearer " + response.token())))
                    .isEqualTo(new CatalogPrincipal("fleet-maintainer", CatalogRole.MAINTAINER));
        }
    }

    @Test
    void aWrongSecretAnUnknownClientOrAnotherGrantGetsNoToken() {
        assertThatThrownBy(() -> authority.token(
                        Map.of(
                                "grant_type", "client_credentials",
                                "client_id", maintainer.name(),
                                "client_secret", "wrong"),
                        Optional.empty()))
                .isInstanceOfSatisfying(OAuthException.class, e -> {
                    assertThat(e.error()).isEqualTo(OAuthException.INVALID_CLIENT);
                    assertThat(e.status()).isEqualTo(401);
                });
        assertThatThrownBy(() -> authority.token(
                        Map.of("grant_type", "client_credentials", "client_id", "nobody", "client_secret", "x"),
                        Optional.empty()))
                .isInstanceOf(OAuthException.class);
        assertThatThrownBy(() -> authority.token(Map.of("grant_type", "password"), Optional.empty()))
                .isInstanceOfSatisfying(
                        OAuthException.class, e -> assertThat(e.error()).isEqualTo("unsupported_grant_type"));
    }

    @Test
    void aTokenExchangeRefreshesAValidTokenOrUsesTheBasicCredentialOnceItExpired() {
        String token = token();
        Map<String, String> exchange = Map.of(
                "grant_type", "urn:ietf:params:oauth:grant-type:token-exchange",
                "subject_token", token,
                "subject_token_type", "urn:ietf:params:oauth:token-type:access_token");

        OAuthTokenResponse refreshed = authority.token(exchange, Optional.of("Bearer " + token));
        OAuthTokenResponse withBasic = authority.token(exchange, Optional.of(basic(maintainer.secret())));

        assertThat(authority
                        .authenticate(Optional.of("Bearer " + refreshed.token()))
                        .role())
                .isEqualTo(CatalogRole.MAINTAINER);
        assertThat(authority
                        .authenticate(Optional.of("Bearer " + withBasic.token()))
                        .role())
                .isEqualTo(CatalogRole.MAINTAINER);
        assertThatThrownBy(() -> authority.token(exchange, Optional.of("Bearer forged")))
                .isInstanceOf(OAuthException.class);
        assertThatThrownBy(() -> authority.token(exchange, Optional.of(basic("wrong"))))
                .isInstanceOf(OAuthException.class);
    }

    @Test
    void noTokenAnotherSchemeOrARevokedClientIsNotAuthorized() {
        String token = token();

        assertThatThrownBy(() -> authority.authenticate(Optional.empty())).isInstanceOf(NotAuthorizedException.class);
        assertThatThrownBy(() -> authority.authenticate(Optional.of(basic(maintainer.secret()))))
                .isInstanceOf(NotAuthorizedException.class);
        clients.revoke(maintainer.name());
        assertThatThrownBy(() -> authority.authenticate(Optional.of("Bearer " + token)))
                .isInstanceOf(NotAuthorizedException.class)
                .hasMessageContaining("revoked");
    }

    private String token() {
        return authority
                .token(
                        Map.of(
                                "grant_type", "client_credentials",
                                "client_id", maintainer.name(),
                                "client_secret", maintainer.secret()),
                        Optional.empty())
                .token();
    }

    private String basic(String secret) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString((maintainer.name() + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }
}
