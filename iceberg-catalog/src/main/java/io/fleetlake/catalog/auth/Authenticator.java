package io.fleetlake.catalog.auth;

import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/** Tells who sent a request from its {@code Authorization} header. */
@FunctionalInterface
public interface Authenticator {
    /** Asks nobody: every request is {@link CatalogPrincipal#ANONYMOUS} ({@code catalog.authentication=none}). */
    Authenticator NONE = authorization -> CatalogPrincipal.ANONYMOUS;

    /**
     * @param authorization the header's value, if the request had one
     * @throws NotAuthorizedException when there is no valid credential: answered 401
     */
    CatalogPrincipal authenticate(Optional<String> authorization);
}
