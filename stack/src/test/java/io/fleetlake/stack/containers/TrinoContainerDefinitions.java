package io.fleetlake.stack.containers;

import static io.fleetlake.stack.containers.ContainerDefinitions.HOST_FROM_CONTAINERS;
import static io.fleetlake.stack.containers.ContainerDefinitions.MINIO_ALIAS;
import static io.fleetlake.stack.containers.ContainerDefinitions.S3_PORT;
import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.trino.EmbeddedTrinoSecrets;
import io.fleetlake.trino.TrinoEtc;
import io.fleetlake.trino.TrinoServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.images.builder.Transferable;

/**
 * What the Trino container runs with, as pure functions of the stack's settings and the checkout: the security of
 * compose's {@code trino} service (docker-compose.yml, {@code deploy/trino/}) — clients over HTTPS with a user of the
 * password file, file-based access control, an internal shared secret — with the catalogs of this provider (the REST
 * catalog on this machine, S3 on the MinIO container) and the data folder's own Trino secrets, so that the stack's
 * clients ({@link StackSettings#trino}) connect to it as to the embedded Trino.
 */
final class TrinoContainerDefinitions {
    /** Trino's internal requests and the health check ({@code GET /v1/info}); it refuses every client request. */
    static final int HTTP_PORT = 8080;
    /** The clients' port: SQL over HTTPS with a password. */
    static final int HTTPS_PORT = 8443;

    /** As compose's {@code entrypoint}: renders the password file from the environment, then runs Trino. */
    static final List<String> ENTRYPOINT = List.of("/bin/bash", "/fleet/trino/start.sh");

    static final String CATALOG_DIRECTORY = "/etc/trino/catalog";
    /** Where start.sh and config.properties expect the key store; start.sh makes none when it exists. */
    static final String KEYSTORE_FILE = "/data/trino/tls/keystore.p12";

    static final String CA_CERTIFICATE_FILE = "/data/trino/tls/ca.pem";

    /** The variable deploy/trino/etc/config.properties reads the key store's password from. */
    static final String KEYSTORE_PASSWORD = "TRINO_KEYSTORE_PASSWORD";
    /** The variable the catalog files of this provider read the reader's catalog credential from, as compose's. */
    static final String CATALOG_CREDENTIAL = "CATALOG_CREDENTIAL";
    /** The variable {@value TrinoEtc#ICEBERG_ADMIN_CATALOG} reads the maintainer's catalog credential from. */
    static final String CATALOG_ADMIN_CREDENTIAL = "CATALOG_ADMIN_CREDENTIAL";

    /**
     * The files of the checkout that compose mounts into the {@code trino} service, by their path in the checkout, with
     * the path compose mounts them at. The catalog folder is not among them: this provider renders its own catalogs
     * ({@link #catalogs}), which reach the catalog and MinIO by other names.
     */
    static final Map<String, String> DEPLOYMENT_FILES = deploymentFiles();

    // A readable file (the container runs Trino as the user trino, the copied files belong to root): none of them holds
    // a secret, the key store is protected by its password.
    private static final int READABLE = 0100644;

    private TrinoContainerDefinitions() {}

    private static Map<String, String> deploymentFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("deploy/trino/etc/config.properties", "/etc/trino/config.properties");
        files.put("deploy/trino/etc/password-authenticator.properties", "/etc/trino/password-authenticator.properties");
        files.put("deploy/trino/etc/access-control.properties", "/etc/trino/access-control.properties");
        files.put("deploy/trino/rules.json", "/etc/trino/rules.json");
        files.put("deploy/trino/start.sh", "/fleet/trino/start.sh");
        files.put("deploy/trino/RenderPasswordFile.java", "/fleet/trino/RenderPasswordFile.java");
        return Collections.unmodifiableMap(files);
    }

    /** The environment variable deploy/trino/RenderPasswordFile.java reads {@code user}'s password from. */
    static String passwordVariable(TrinoUser user) {
        return "TRINO_" + requireNonNull(user, "user is null").name() + "_PASSWORD";
    }

    /**
     * The container's environment: what start.sh, config.properties and the catalog files read. The users' passwords
     * and the shared secret are the data folder's ({@link StackSettings#trinoSecrets()}), generated at the first call
     * as for the embedded Trino; the catalog credentials the stack's clients, when it created them.
     *
     * @param keystorePassword protects the key store of {@link #keyStore}
     */
    static Map<String, String> environment(StackSettings settings, String keystorePassword) {
        requireNonNull(settings, "settings is null");
        requireNonNull(keystorePassword, "keystorePassword is null");
        EmbeddedTrinoSecrets secrets = settings.trinoSecrets();
        Map<String, String> environment = new LinkedHashMap<>();
        for (TrinoUser user : TrinoUser.values()) {
            environment.put(passwordVariable(user), secrets.password(user));
        }
        environment.put("TRINO_SHARED_SECRET", secrets.sharedSecret());
        environment.put(KEYSTORE_PASSWORD, keystorePassword);
        environment.put("S3_ACCESS_KEY", settings.s3AccessKey());
        environment.put("S3_SECRET_KEY", settings.s3SecretKey());
        StackCatalogIdentity catalogIdentity = StackCatalogIdentity.of(settings);
        catalogIdentity
                .credentialIfCreated(CatalogRole.READER)
                .ifPresent(credential -> environment.put(CATALOG_CREDENTIAL, credential.value()));
        catalogIdentity
                .credentialIfCreated(CatalogRole.MAINTAINER)
                .ifPresent(credential -> environment.put(CATALOG_ADMIN_CREDENTIAL, credential.value()));
        return environment;
    }

    /**
     * The catalog files by their path in the container, as TrinoEtc generates them for the embedded Trino: {@value
     * TrinoEtc#ICEBERG_CATALOG} with the reader's catalog credential, which every user reads through, and, once the
     * stack created its maintainer, {@value TrinoEtc#ICEBERG_ADMIN_CATALOG} with the maintainer's, which only admin may
     * use (rules.json); {@value TrinoEtc#ICEBERG_CATALOG} is then read-only for the connector itself. The secrets stay
     * in the environment ({@code ${ENV:...}}, see {@link #environment}).
     */
    static Map<String, Map<String, String>> catalogs(StackSettings settings) {
        StackCatalogIdentity catalogIdentity = StackCatalogIdentity.of(settings);
        boolean reader = catalogIdentity.credentialIfCreated(CatalogRole.READER).isPresent();
        boolean maintainer =
                catalogIdentity.credentialIfCreated(CatalogRole.MAINTAINER).isPresent();
        Map<String, String> iceberg =
                catalogProperties(settings, reader ? Optional.of(CATALOG_CREDENTIAL) : Optional.empty());
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        if (maintainer) {
            // Writes go through iceberg_admin; the connector refuses every write here, table procedures (optimize,
            // expire_snapshots) included, which Trino's file-based access control lets through for any user.
            iceberg.put("iceberg.security", "read_only");
        }
        catalogs.put(catalogFile(TrinoEtc.ICEBERG_CATALOG), iceberg);
        if (maintainer) {
            catalogs.put(
                    catalogFile(TrinoEtc.ICEBERG_ADMIN_CATALOG),
                    catalogProperties(settings, Optional.of(CATALOG_ADMIN_CREDENTIAL)));
        }
        return catalogs;
    }

    private static String catalogFile(String catalog) {
        return CATALOG_DIRECTORY + "/" + catalog + ".properties";
    }

    /**
     * One Iceberg catalog with the keys of TrinoEtc's: the REST catalog is a process on this machine, which Trino
     * reaches through Testcontainers' host access; S3 is the MinIO container, reached on the network the two share.
     *
     * @param credentialVariable the environment variable holding the catalog credential, if any
     */
    static Map<String, String> catalogProperties(StackSettings settings, Optional<String> credentialVariable) {
        requireNonNull(settings, "settings is null");
        requireNonNull(credentialVariable, "credentialVariable is null");
        String catalogUri = "http://" + HOST_FROM_CONTAINERS + ":" + settings.port(StackPort.CATALOG);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("connector.name", "iceberg");
        properties.put("iceberg.catalog.type", "rest");
        properties.put("iceberg.rest-catalog.uri", catalogUri);
        properties.put("iceberg.rest-catalog.warehouse", settings.warehouse());
        // Our catalog serves Iceberg views (fleet.positions_with_places); Trino reads them through these endpoints.
        properties.put("iceberg.rest-catalog.view-endpoints-enabled", "true");
        credentialVariable.ifPresent(variable -> {
            properties.put("iceberg.rest-catalog.security", "OAUTH2");
            properties.put("iceberg.rest-catalog.oauth2.credential", "${ENV:" + variable + "}");
            properties.put("iceberg.rest-catalog.oauth2.server-uri", CatalogAuthentication.tokenEndpoint(catalogUri));
            properties.put("iceberg.rest-catalog.oauth2.scope", CatalogAuthentication.SCOPE);
            properties.put("iceberg.rest-catalog.oauth2.token-refresh-enabled", "true");
        });
        properties.put("fs.native-s3.enabled", "true");
        properties.put("s3.endpoint", "http://" + MINIO_ALIAS + ":" + S3_PORT);
        properties.put("s3.path-style-access", "true");
        properties.put("s3.region", settings.s3Region());
        properties.put("s3.aws-access-key", "${ENV:S3_ACCESS_KEY}");
        properties.put("s3.aws-secret-key", "${ENV:S3_SECRET_KEY}");
        return properties;
    }

    /**
     * The deployment files of {@link #DEPLOYMENT_FILES} read from the checkout at {@code root}, by their path in the
     * container.
     */
    static Map<String, Transferable> deploymentFiles(Path root) {
        requireNonNull(root, "root is null");
        Map<String, Transferable> files = new LinkedHashMap<>();
        DEPLOYMENT_FILES.forEach((checkoutPath, containerPath) -> {
            Path file = root.resolve(checkoutPath);
            try {
                files.put(containerPath, Transferable.of(Files.readAllBytes(file), READABLE));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read " + file + ", which the Trino container runs with: run from the fleet-lakehouse"
                                + " checkout or set FLEET_HOME",
                        e);
            }
        });
        return files;
    }

    /**
     * Trino's HTTPS key store (PKCS#12, protected by {@code password}): the server certificate of the data folder's
     * Trino CA ({@link EmbeddedTrinoSecrets#tlsDirectory()}), issued for the stack's address and {@code localhost} as
     * for the embedded Trino, so that the clients' trust ({@link EmbeddedTrinoSecrets#caCertificate()}) holds.
     */
    static byte[] keyStore(StackSettings settings, char[] password) {
        requireNonNull(password, "password is null");
        LocalCertificateAuthority.TlsFiles tls =
                TrinoServer.ensureCertificate(settings.trinoSecrets().tlsDirectory(), settings.hostAddress());
        KeyStore store = LocalCertificateAuthority.keyStore(tls, password);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            store.store(bytes, password);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write Trino's key store", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot write Trino's key store: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /**
     * The files the Trino container gets besides the deployment files: the catalogs, the key store and the CA
     * certificate (start.sh leaves a key store it finds; the CA certificate is where compose's clients find it).
     */
    static Map<String, Transferable> generatedFiles(StackSettings settings, char[] keystorePassword) {
        Map<String, Transferable> files = new LinkedHashMap<>();
        catalogs(settings)
                .forEach((path, properties) ->
                        files.put(path, Transferable.of(ContainerDefinitions.render(properties), READABLE)));
        files.put(KEYSTORE_FILE, Transferable.of(keyStore(settings, keystorePassword), READABLE));
        try {
            files.put(
                    CA_CERTIFICATE_FILE,
                    Transferable.of(Files.readAllBytes(settings.trinoSecrets().caCertificate()), READABLE));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Trino's CA certificate", e);
        }
        return files;
    }
}
