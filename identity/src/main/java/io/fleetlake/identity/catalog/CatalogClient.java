package io.fleetlake.identity.catalog;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.PasswordHash;
import io.fleetlake.model.catalog.CatalogRole;

/**
 * One client of the Iceberg REST catalog: its id (the OAuth2 {@code client_id}), its role and the hash of its secret.
 *
 * @param name the client id
 * @param role what it may do
 * @param secret the salted hash of its client secret
 */
public record CatalogClient(String name, CatalogRole role, PasswordHash secret) {
    public CatalogClient {
        requireNonNull(name, "name is null");
        requireNonNull(role, "role is null");
        requireNonNull(secret, "secret is null");
        if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException(
                    "A catalog client id is 1-64 letters, digits, '.', '_' or '-', got '" + name + "'");
        }
    }

    /** The line value in the clients file: {@code <role> <hash>}. */
    String encoded() {
        return role.label() + " " + secret.encoded();
    }

    static CatalogClient decode(String name, String value) {
        String[] parts = value.trim().split("\\s+", 2);
        if (parts.length != 2) {
            throw new IllegalArgumentException("The catalog client " + name + " is not '<role> <hash>'");
        }
        return new CatalogClient(name, CatalogRole.named(parts[0]), new PasswordHash(parts[1]));
    }
}
