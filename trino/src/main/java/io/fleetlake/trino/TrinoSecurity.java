package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.trino.TrinoUser;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * How the local Trino keeps strangers out: clients connect over HTTPS only ({@value #HTTPS_PORT}) with a user of
 * {@link TrinoUser} and its password; the plain HTTP port stays for Trino's own internal requests (signed with {@value
 * #SHARED_SECRET}) and {@code GET /v1/info}, and refuses every client request with 403. The certificate comes from the
 * data folder's local CA in {@value #TLS_DIRECTORY} ({@link io.fleetlake.identity.LocalCertificateAuthority}).
 *
 * @param httpsPort the HTTPS port clients use, or 0 to pick a free port at start
 * @param tlsDirectory where the local CA ({@code ca.pem}, which clients trust) and the server certificate live
 * @param sharedSecret the secret Trino signs its internal requests with; never printed
 * @param passwords every user's password, from {@value #PASSWORD_PREFIX}{@code <user>}; never printed
 * @param adminCatalogCredential the REST catalog credential of the {@value TrinoEtc#ICEBERG_ADMIN_CATALOG} catalog,
 *     which only {@code admin} may use (a maintainer's); empty for no such catalog
 */
public record TrinoSecurity(
        int httpsPort,
        Path tlsDirectory,
        String sharedSecret,
        Map<TrinoUser, String> passwords,
        Optional<CatalogCredential> adminCatalogCredential) {
    public static final String HTTPS_PORT = "trino.https-port";
    public static final String TLS_DIRECTORY = "trino.tls-dir";
    public static final String SHARED_SECRET = "trino.shared-secret";
    public static final String PASSWORD_PREFIX = "trino.password.";
    public static final String ADMIN_CATALOG_CREDENTIAL = "trino.admin-catalog-credential";

    public static final int DEFAULT_HTTPS_PORT = 8443;
    // Trino refuses a shared secret it considers weak only by length; 256 random bits are what the stack generates.
    private static final int MINIMUM_SECRET_LENGTH = 16;

    public TrinoSecurity {
        requireNonNull(tlsDirectory, "tlsDirectory is null");
        requireNonNull(sharedSecret, "sharedSecret is null");
        requireNonNull(passwords, "passwords is null");
        requireNonNull(adminCatalogCredential, "adminCatalogCredential is null");
        if (httpsPort < 0 || httpsPort > 65535) {
            throw new ConfigException(
                    HTTPS_PORT + " = " + httpsPort + " is not a port: use 1-65535, or 0 for a free port");
        }
        if (sharedSecret.length() < MINIMUM_SECRET_LENGTH) {
            throw new ConfigException(SHARED_SECRET + " must be at least " + MINIMUM_SECRET_LENGTH
                    + " characters, for example 43 random URL-safe Base64 characters (the value is not shown)");
        }
        for (TrinoUser user : TrinoUser.values()) {
            String password = passwords.get(user);
            if (password == null || password.isEmpty()) {
                throw new ConfigException("Set " + PASSWORD_PREFIX + user.userName() + " (environment "
                        + ConfigSource.environmentName(PASSWORD_PREFIX + user.userName())
                        + "): every Trino user needs a password");
            }
        }
        passwords = Collections.unmodifiableMap(new EnumMap<>(passwords));
        tlsDirectory = tlsDirectory.toAbsolutePath().normalize();
    }

    static TrinoSecurity from(ConfigSource source, Path dataDirectory) {
        Map<TrinoUser, String> passwords = new EnumMap<>(TrinoUser.class);
        for (TrinoUser user : TrinoUser.values()) {
            source.string(PASSWORD_PREFIX + user.userName()).ifPresent(password -> passwords.put(user, password));
        }
        return new TrinoSecurity(
                source.port(HTTPS_PORT, DEFAULT_HTTPS_PORT),
                source.path(TLS_DIRECTORY, dataDirectory.resolve("tls")),
                source.string(SHARED_SECRET)
                        .orElseThrow(() -> new ConfigException("Set " + SHARED_SECRET
                                + " (environment " + ConfigSource.environmentName(SHARED_SECRET)
                                + "): Trino signs its internal requests with it; generate 256 random bits")),
                passwords,
                source.secret(
                        ADMIN_CATALOG_CREDENTIAL, value -> CatalogCredential.parse(ADMIN_CATALOG_CREDENTIAL, value)));
    }

    /** The password of {@code user}; never log it. */
    public String password(TrinoUser user) {
        return passwords.get(requireNonNull(user, "user is null"));
    }

    /** The CA certificate clients trust: {@code <tls-dir>/ca.pem}. */
    public Path caCertificate() {
        return tlsDirectory.resolve(io.fleetlake.identity.LocalCertificateAuthority.CA_CERTIFICATE);
    }

    @Override
    public String toString() {
        return "TrinoSecurity[httpsPort=" + httpsPort + ", tlsDirectory=" + tlsDirectory + ", sharedSecret=****"
                + ", users=" + passwords.keySet() + ", adminCatalogCredential="
                + adminCatalogCredential.map(CatalogCredential::clientId).orElse("(none)") + "]";
    }
}
