package io.fleetlake.stack.identity;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestStores;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.LocalCertificateAuthority.TlsFiles;
import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.stack.StackSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The mutual TLS of the pipeline's Flink REST API in both pipeline modes, created on the first use in a data folder: a
 * local CA and one certificate (server and client authentication) for the stack's host in {@code
 * <data-dir>/flink-cluster/tls/} ({@link LocalCertificateAuthority}, like the MQTT TLS listener's), the PKCS#12 key
 * store and trust store Flink and the clients read, and their password in {@code <data-dir>/secrets/}{@value
 * #SECRET_FILE} (owner-only, {@link SecretFile}). The cluster's JobManager or the embedded pipeline's MiniCluster
 * presents the certificate and accepts only clients presenting one its CA issued; the stack's own clients present the
 * same certificate. The password reaches Flink in an owner-only file (the cluster's {@code config.yaml}, the embedded
 * pipeline's configuration), never on a command line.
 */
public final class StackFlinkRestIdentity {
    public static final String SECRET_FILE = "flink-rest.properties";
    public static final String KEY_STORE = "rest-keystore.p12";
    public static final String TRUST_STORE = "rest-truststore.p12";
    /** What {@link #exportClientPem} writes for {@code curl --cert}. */
    public static final String CLIENT_PEM = "flink-client.pem";
    /** What {@link #exportClientPem} writes for {@code curl --cacert}. */
    public static final String CA_PEM = "flink-ca.pem";

    static final String STORE_PASSWORD = "store-password";
    /** The stack's components start concurrently and all of them may ask; the files are written once at a time. */
    private static final Object ENSURING = new Object();

    private final Path folder;
    private final SecretFile secrets;
    private final Set<String> hostnames;

    private StackFlinkRestIdentity(Path folder, SecretFile secrets, Set<String> hostnames) {
        this.folder = folder;
        this.secrets = secrets;
        this.hostnames = hostnames;
    }

    public static StackFlinkRestIdentity of(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        Set<String> hostnames = new LinkedHashSet<>(List.of(settings.host(), "localhost"));
        return new StackFlinkRestIdentity(
                settings.dataDirectory().resolve("flink-cluster").resolve("tls"),
                new SecretFile(
                        settings.dataDirectory().resolve("secrets").resolve(SECRET_FILE),
                        "Password of the key store and trust store of the pipeline's Flink REST API"),
                Set.copyOf(hostnames));
    }

    public Path keyStore() {
        return folder.resolve(KEY_STORE);
    }

    public Path trustStore() {
        return folder.resolve(TRUST_STORE);
    }

    /** The PEM files (CA, certificate and key) the stores are made of. */
    public Path folder() {
        return folder;
    }

    /** The stores and their password; creates whatever is missing. */
    public FlinkRestStores stores() {
        return new FlinkRestStores(keyStore(), trustStore(), ensure());
    }

    /** The password of both stores; creates whatever is missing. */
    public String storePassword() {
        return ensure();
    }

    /** What a client presents and trusts; creates whatever is missing. */
    public FlinkRestTls clientTls() {
        return stores().clientTls();
    }

    /**
     * Writes what curl needs to call the REST API into {@code directory}: {@value #CLIENT_PEM} (the certificate chain
     * and its unencrypted key, owner-only; {@code curl --cert}) and {@value #CA_PEM} ({@code curl --cacert}); creates
     * whatever is missing first.
     *
     * @return the client file
     */
    public Path exportClientPem(Path directory) {
        requireNonNull(directory, "directory is null");
        synchronized (ENSURING) {
            ensure();
            Path client = directory.resolve(CLIENT_PEM);
            try {
                String chain = Files.readString(folder.resolve(LocalCertificateAuthority.SERVER_CERTIFICATE));
                String key = Files.readString(folder.resolve(LocalCertificateAuthority.SERVER_KEY));
                OwnerOnlyFiles.write(client, (chain + key).getBytes(StandardCharsets.US_ASCII));
                Files.copy(
                        folder.resolve(LocalCertificateAuthority.CA_CERTIFICATE),
                        directory.resolve(CA_PEM),
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the Flink REST client certificate into " + directory, e);
            }
            return client;
        }
    }

    /** Creates the CA, the certificate, the stores and the password where missing; returns the password. */
    private String ensure() {
        synchronized (ENSURING) {
            String password = secrets.secret(STORE_PASSWORD);
            TlsFiles files =
                    LocalCertificateAuthority.ensureForMutualTls(folder, "Flink REST", hostnames, Clock.systemUTC());
            try {
                char[] characters = password.toCharArray();
                write(keyStore(), LocalCertificateAuthority.keyStore(files, characters), characters);
                KeyStore trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                List<X509Certificate> authority = LocalCertificateAuthority.readCertificates(
                        folder.resolve(LocalCertificateAuthority.CA_CERTIFICATE));
                for (int index = 0; index < authority.size(); index++) {
                    trust.setCertificateEntry("ca-" + index, authority.get(index));
                }
                write(trustStore(), trust, characters);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the Flink REST key stores in " + folder, e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("Cannot write the Flink REST key stores in " + folder + ": " + e, e);
            }
            return password;
        }
    }

    private static void write(Path file, KeyStore store, char[] password) throws IOException, GeneralSecurityException {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        store.store(content, password);
        OwnerOnlyFiles.write(file, content.toByteArray());
    }
}
