package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.catalog.auth.OAuth2Authority;
import io.fleetlake.catalog.auth.OAuthException;
import java.util.Optional;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;

/** {@code POST /v1/oauth/tokens}: the form body handed to the {@link OAuth2Authority}, when the server has one. */
final class TokenEndpoint {
    private final Optional<OAuth2Authority> authority;

    TokenEndpoint(Optional<OAuth2Authority> authority) {
        this.authority = requireNonNull(authority, "authority is null");
    }

    OAuthTokenResponse token(IcebergRequest request) {
        OAuth2Authority present = authority.orElseThrow(() -> new OAuthException(
                OAuthException.UNSUPPORTED_GRANT_TYPE,
                400,
                "This catalog runs without authentication (catalog.authentication=none): send no token"));
        return present.token(request.form(), request.authorization());
    }
}
