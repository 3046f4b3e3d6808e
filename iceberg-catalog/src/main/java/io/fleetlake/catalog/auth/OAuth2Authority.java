package io.fleetlake.catalog.auth;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogRole;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OAuth2 for the catalog, as the Iceberg REST spec's {@code POST /v1/oauth/tokens} and Iceberg's clients use it:
 *
 * <ul>
 *   <li>{@code grant_type=client_credentials} with {@code client_id} and {@code client_secret} (form fields, or HTTP
 *       Basic): a token for that client, if its secret matches the hash in the clients file;
 *   <li>{@code grant_type=urn:ietf:params:oauth:grant-type:token-exchange} (how Iceberg's client refreshes a token
 *       before it expires): a new token for the client of a still-valid bearer token, or for the client of an HTTP
 *       Basic credential (Iceberg's fallback once the token expired).
 * </ul>
 *
 * <p>Every request then carries {@code Authorization: Bearer <token>}; the token is valid until it expires
 * ({@code catalog.token-lifetime}) and only while its client is still in the clients file: a revoked client is refused
 * at its next request, a rotated secret gets no new token. The role is the client's current one in the file.
 */
public final class OAuth2Authority implements Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(OAuth2Authority.class);
    private static final String BEARER = "Bearer ";
    private static final String BASIC = "Basic ";
    private static final String CLIENT_CREDENTIALS = "client_credentials";
    private static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

    private final CatalogClients clients;
    private final TokenSigner signer;
    private final Duration lifetime;

    public OAuth2Authority(CatalogClients clients, TokenSigner signer, Duration lifetime) {
        this.clients = requireNonNull(clients, "clients is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.lifetime = requireNonNull(lifetime, "lifetime is null");
    }

    @Override
    public CatalogPrincipal authenticate(Optional<String> authorization) {
        String header = authorization.orElseThrow(() -> new NotAuthorizedException(
                "Authentication required: get a token at /v1/oauth/tokens with the client credentials and"
                        + " send it as Authorization: Bearer <token>"));
        if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new NotAuthorizedException("Only bearer tokens are accepted here: get one at /v1/oauth/tokens");
        }
        CatalogPrincipal principal = signer.verify(
                        header.substring(BEARER.length()).trim())
                .orElseThrow(() -> new NotAuthorizedException(
                        "The bearer token is invalid or expired: get a new one at /v1/oauth/tokens"));
        return current(principal)
                .orElseThrow(
                        () -> new NotAuthorizedException("The catalog client %s was revoked", principal.clientId()));
    }

    /**
     * Answers a token request.
     *
     * @param form the decoded form fields of the request body
     * @param authorization the request's {@code Authorization} header, if any
     * @throws OAuthException when no token is issued; never says whether the client exists
     */
    public OAuthTokenResponse token(Map<String, String> form, Optional<String> authorization) {
        requireNonNull(form, "form is null");
        requireNonNull(authorization, "authorization is null");
        String grantType = form.getOrDefault("grant_type", "");
        CatalogPrincipal principal;
        if (grantType.equals(CLIENT_CREDENTIALS)) {
            principal = clientCredentials(form, authorization);
        } else if (grantType.equals(TOKEN_EXCHANGE)) {
            principal = exchange(authorization);
        } else {
            throw new OAuthException(
                    OAuthException.UNSUPPORTED_GRANT_TYPE,
                    400,
                    "Use grant_type=client_credentials (or token exchange to refresh a token)");
        }
        LOG.debug("Issued a catalog token to {} ({})", principal.clientId(), principal.role());
        return OAuthTokenResponse.builder()
                .withToken(signer.issue(principal, lifetime))
                .withTokenType("bearer")
                .withIssuedTokenType(OAuth2Properties.ACCESS_TOKEN_TYPE)
                .setExpirationInSeconds(Math.toIntExact(lifetime.toSeconds()))
                .addScopes(List.of(scope(form)))
                .build();
    }

    private CatalogPrincipal clientCredentials(Map<String, String> form, Optional<String> authorization) {
        Optional<String[]> basic = authorization.flatMap(OAuth2Authority::basic);
        String clientId =
                form.getOrDefault("client_id", basic.map(pair -> pair[0]).orElse(""));
        String secret =
                form.getOrDefault("client_secret", basic.map(pair -> pair[1]).orElse(""));
        if (clientId.isEmpty() || secret.isEmpty()) {
            throw new OAuthException(
                    OAuthException.INVALID_CLIENT, 401, "Send client_id and client_secret (credential id:secret)");
        }
        return authenticated(clientId, secret);
    }

    /** A refresh: the client of a valid bearer token, or of a Basic credential once the token has expired. */
    private CatalogPrincipal exchange(Optional<String> authorization) {
        String header = authorization.orElse("");
        Optional<String[]> basic = basic(header);
        if (basic.isPresent()) {
            return authenticated(basic.get()[0], basic.get()[1]);
        }
        try {
            return authenticate(authorization);
        } catch (NotAuthorizedException e) {
            throw new OAuthException(OAuthException.INVALID_GRANT, 401, e.getMessage());
        }
    }

    private CatalogPrincipal authenticated(String clientId, String secret) {
        CatalogRole role = clients.authenticate(clientId, secret)
                .orElseThrow(
                        () -> new OAuthException(OAuthException.INVALID_CLIENT, 401, "Unknown client or wrong secret"));
        return new CatalogPrincipal(clientId, role);
    }

    private Optional<CatalogPrincipal> current(CatalogPrincipal principal) {
        return clients.role(principal.clientId()).map(role -> new CatalogPrincipal(principal.clientId(), role));
    }

    private static String scope(Map<String, String> form) {
        String scope = form.getOrDefault("scope", "").trim();
        return scope.isEmpty() ? OAuth2Properties.CATALOG_SCOPE : scope;
    }

    private static Optional<String[]> basic(String header) {
        if (!header.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(header.substring(BASIC.length()).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        return Optional.of(new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)});
    }
}
