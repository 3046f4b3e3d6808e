package io.fleetlake.model.catalog;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How clients authenticate to the fleet's Iceberg REST catalog: OAuth2 client credentials at {@value #TOKENS_PATH}
 * (the REST spec's token endpoint), then the issued bearer token on every request. The one place every client of the
 * catalog (Flink, maintenance, Spark, the bench, the stack's own checks) takes its properties from.
 */
public final class CatalogAuthentication {
    /** The token endpoint, below the catalog's base URI. */
    public static final String TOKENS_PATH = "/v1/oauth/tokens";

    /** The health check: answers 200 without authentication, for probes. */
    public static final String HEALTH_PATH = "/healthz";

    /** The scope clients ask for; Iceberg's default. */
    public static final String SCOPE = "catalog";

    /** Iceberg's REST client properties (see {@code OAuth2Properties} and {@code AuthProperties}). */
    public static final String AUTH_TYPE = "rest.auth.type";

    public static final String CREDENTIAL = "credential";
    public static final String OAUTH2_SERVER_URI = "oauth2-server-uri";
    public static final String SCOPE_PROPERTY = "scope";
    public static final String TOKEN_REFRESH_ENABLED = "token-refresh-enabled";

    private CatalogAuthentication() {}

    /** The token endpoint of the catalog at {@code catalogUri}, such as {@code http://127.0.0.1:8181/v1/oauth/tokens}. */
    public static String tokenEndpoint(String catalogUri) {
        requireNonNull(catalogUri, "catalogUri is null");
        String base = catalogUri.endsWith("/") ? catalogUri.substring(0, catalogUri.length() - 1) : catalogUri;
        return base + TOKENS_PATH;
    }

    /**
     * The properties of Iceberg's REST catalog client ({@code RESTCatalog}, Flink's and Spark's catalogs) that make it
     * fetch a token with {@code credential} and keep it refreshed, to be added to the client's {@code uri}, warehouse
     * and file IO properties.
     */
    public static Map<String, String> clientProperties(String catalogUri, CatalogCredential credential) {
        requireNonNull(credential, "credential is null");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(AUTH_TYPE, "oauth2");
        properties.put(CREDENTIAL, credential.value());
        properties.put(OAUTH2_SERVER_URI, tokenEndpoint(catalogUri));
        properties.put(SCOPE_PROPERTY, SCOPE);
        properties.put(TOKEN_REFRESH_ENABLED, "true");
        return properties;
    }
}
