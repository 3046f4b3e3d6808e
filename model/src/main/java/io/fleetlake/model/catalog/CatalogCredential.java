package io.fleetlake.model.catalog;

import static java.util.Objects.requireNonNull;

/**
 * A client's OAuth2 client credentials for the Iceberg REST catalog, written {@code <client id>:<secret>} as Iceberg's
 * {@code credential} property expects. Never printed: {@link #toString()} shows the client id only.
 *
 * @param clientId the client's name, such as {@code fleet-writer}
 * @param secret the client secret
 */
public record CatalogCredential(String clientId, String secret) {
    public CatalogCredential {
        requireNonNull(clientId, "clientId is null");
        requireNonNull(secret, "secret is null");
        if (clientId.isBlank() || clientId.contains(":")) {
            throw new IllegalArgumentException("A catalog client id must be non-blank and without ':'");
        }
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("The catalog client " + clientId + " has an empty secret");
        }
    }

    /**
     * Parses {@code <client id>:<secret>}.
     *
     * @param key the configuration key the value comes from, named in the error
     * @throws IllegalArgumentException when the value is not of that form; the message does not repeat the value
     */
    public static CatalogCredential parse(String key, String value) {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        int colon = value.indexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException(
                    key + " must be <client id>:<secret>, such as fleet-reader:<its secret> (the value is not shown)");
        }
        return new CatalogCredential(value.substring(0, colon).trim(), value.substring(colon + 1));
    }

    /** The {@code <client id>:<secret>} form, for Iceberg's {@code credential} property; never log it. */
    public String value() {
        return clientId + ":" + secret;
    }

    @Override
    public String toString() {
        return "CatalogCredential{clientId=" + clientId + ", secret=***}";
    }
}
