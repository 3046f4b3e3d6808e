package io.fleetlake.flink.rest;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * What a client of a Flink REST endpoint with mutual TLS needs: the key store with its client certificate and key
 * (presented at every handshake) and the trust store with the CA that issued the endpoint's certificate, both PKCS#12
 * files, the same pair the endpoint itself is configured with ({@code security.ssl.rest.keystore}, {@code
 * security.ssl.rest.truststore}). The password is read here and kept only inside the {@link SSLContext}.
 */
public final class FlinkRestTls {
    /** A component's option (after its prefix, such as {@code exporter.}): the PKCS#12 key store to present. */
    public static final String KEY_STORE_OPTION = "flink-rest-key-store";
    /** A component's option: the PKCS#12 trust store with the CA of the endpoint's certificate. */
    public static final String TRUST_STORE_OPTION = "flink-rest-trust-store";
    /** A component's option: the password of both stores. */
    public static final String STORE_PASSWORD_OPTION = "flink-rest-store-password";

    private final SSLContext sslContext;

    private FlinkRestTls(SSLContext sslContext) {
        this.sslContext = sslContext;
    }

    /**
     * @param keyStore PKCS#12: the client's key and certificate chain, its key protected by the store's password
     * @param trustStore PKCS#12: the CA certificates to trust
     * @param password of both stores
     */
    public static FlinkRestTls load(Path keyStore, Path trustStore, char[] password) {
        requireNonNull(keyStore, "keyStore is null");
        requireNonNull(trustStore, "trustStore is null");
        requireNonNull(password, "password is null");
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(read(keyStore, password), password);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(read(trustStore, password));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return new FlinkRestTls(context);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read the Flink REST client's key store " + keyStore + " or trust store " + trustStore + ": "
                            + e.getMessage(),
                    e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "Cannot use the Flink REST client's key store " + keyStore + " or trust store " + trustStore + ": "
                            + e,
                    e);
        }
    }

    /**
     * The client TLS a component's configuration asks for: all three options {@code <prefix>}{@value
     * #KEY_STORE_OPTION}, {@value #TRUST_STORE_OPTION} and {@value #STORE_PASSWORD_OPTION} set, or none (a plain
     * HTTP endpoint).
     *
     * @param options looks an option up by its full key
     * @throws IllegalArgumentException when only some are set; the message names them, never the password
     */
    public static Optional<FlinkRestTls> fromOptions(String prefix, Function<String, Optional<String>> options) {
        return FlinkRestStores.fromOptions(prefix, options).map(FlinkRestStores::clientTls);
    }

    SSLContext sslContext() {
        return sslContext;
    }

    private static KeyStore read(Path file, char[] password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        return store;
    }

    @Override
    public String toString() {
        return "FlinkRestTls{client certificate and trusted CA loaded}";
    }
}
