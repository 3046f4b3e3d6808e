package io.fleetlake.catalog.auth;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;

/**
 * Who sent a request, as its bearer token says.
 *
 * @param clientId the client the token was issued to
 * @param role what the client may do
 */
public record CatalogPrincipal(String clientId, CatalogRole role) {
    /** Everyone, when the server runs without authentication ({@code catalog.authentication=none}). */
    public static final CatalogPrincipal ANONYMOUS = new CatalogPrincipal("anonymous", CatalogRole.ADMIN);

    public CatalogPrincipal {
        requireNonNull(clientId, "clientId is null");
        requireNonNull(role, "role is null");
    }
}
