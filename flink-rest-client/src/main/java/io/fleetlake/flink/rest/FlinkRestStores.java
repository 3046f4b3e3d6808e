package io.fleetlake.flink.rest;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The PKCS#12 key store and trust store of a Flink REST endpoint with mutual TLS, and their password: the endpoint
 * presents the key store's certificate and accepts only clients presenting one that the trust store's CA issued; a
 * client of the same deployment presents the same certificate ({@link #clientTls()}). One pair serves both sides, as
 * Flink's documentation suggests for an endpoint that only the deployment's own processes call.
 *
 * @param password of both stores and of the key; never printed
 */
public record FlinkRestStores(Path keyStore, Path trustStore, String password) {
    /**
     * Flink's default ({@code TLS_RSA_WITH_AES_128_CBC_SHA}) has no forward secrecy, is disabled in current JDKs and
     * does not fit EC keys.
     */
    public static final String CIPHER_SUITES =
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256";

    public FlinkRestStores {
        requireNonNull(keyStore, "keyStore is null");
        requireNonNull(trustStore, "trustStore is null");
        requireNonNull(password, "password is null");
    }

    /**
     * The stores a component's configuration names: all three options {@code <prefix>}{@value
     * FlinkRestTls#KEY_STORE_OPTION}, {@value FlinkRestTls#TRUST_STORE_OPTION} and {@value
     * FlinkRestTls#STORE_PASSWORD_OPTION} set, or none (a plain HTTP endpoint).
     *
     * @param options looks an option up by its full key
     * @throws IllegalArgumentException when only some are set; the message names them, never the password
     */
    public static Optional<FlinkRestStores> fromOptions(String prefix, Function<String, Optional<String>> options) {
        requireNonNull(prefix, "prefix is null");
        requireNonNull(options, "options is null");
        Optional<String> keyStore = options.apply(prefix + FlinkRestTls.KEY_STORE_OPTION);
        Optional<String> trustStore = options.apply(prefix + FlinkRestTls.TRUST_STORE_OPTION);
        Optional<String> password = options.apply(prefix + FlinkRestTls.STORE_PASSWORD_OPTION);
        if (keyStore.isEmpty() && trustStore.isEmpty() && password.isEmpty()) {
            return Optional.empty();
        }
        if (keyStore.isEmpty() || trustStore.isEmpty() || password.isEmpty()) {
            throw new IllegalArgumentException("The Flink REST API's TLS needs all of " + prefix
                    + FlinkRestTls.KEY_STORE_OPTION + ", " + prefix + FlinkRestTls.TRUST_STORE_OPTION + " and "
                    + prefix + FlinkRestTls.STORE_PASSWORD_OPTION + ", or none of them");
        }
        return Optional.of(new FlinkRestStores(Path.of(keyStore.get()), Path.of(trustStore.get()), password.get()));
    }

    /** What a client presents and trusts. */
    public FlinkRestTls clientTls() {
        return FlinkRestTls.load(keyStore, trustStore, password.toCharArray());
    }

    /**
     * The {@code security.ssl.rest.*} options of the endpoint's Flink configuration: TLS on the REST endpoint, client
     * certificates required, these stores and their password.
     */
    public Map<String, String> endpointOptions() {
        Map<String, String> options = storeOptions("security.ssl.rest.");
        options.put("security.ssl.rest.authentication-enabled", "true");
        return options;
    }

    /**
     * The {@code security.ssl.internal.*} options of a Flink cluster's configuration, with these stores: TLS with
     * client certificates on the JobManager's and TaskManagers' RPC, the blob server and the data exchange between
     * TaskManagers, so that only processes holding a certificate of the trust store's CA take part in the cluster.
     * Flink requires client certificates there without a flag.
     */
    public Map<String, String> internalOptions() {
        return storeOptions("security.ssl.internal.");
    }

    /** TLS on under {@code scope}, these stores and their password, and the protocol and suites every scope shares. */
    private Map<String, String> storeOptions(String scope) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(scope + "enabled", "true");
        options.put(scope + "keystore", keyStore.toString());
        options.put(scope + "keystore-type", "PKCS12");
        options.put(scope + "keystore-password", password);
        options.put(scope + "key-password", password);
        options.put(scope + "truststore", trustStore.toString());
        options.put(scope + "truststore-type", "PKCS12");
        options.put(scope + "truststore-password", password);
        options.put("security.ssl.protocol", "TLSv1.2");
        options.put("security.ssl.algorithms", CIPHER_SUITES);
        return options;
    }

    @Override
    public String toString() {
        return "FlinkRestStores{keyStore=" + keyStore + ", trustStore=" + trustStore + ", password=<redacted>}";
    }
}
