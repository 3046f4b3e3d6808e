package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.model.trino.TrinoUser;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the embedded stack keeps the Trino secrets it generates for a data folder, so that every client finds them
 * from the data folder alone (the stack's components, {@code fleet audit}, the notebooks): the users' passwords and the
 * internal shared secret in {@code <data-dir>/secrets/}{@value #FILE} (owner-only, {@link SecretFile}), the CA
 * certificate clients trust in {@code <data-dir>/trino/tls/ca.pem}.
 */
public final class EmbeddedTrinoSecrets {
    public static final String FILE = "trino.properties";
    /** The name of the internal shared secret in {@value #FILE}; the users' passwords go by their user names. */
    public static final String SHARED_SECRET = "internal-shared-secret";

    // One generation per data folder even when several threads of this process ask first at once.
    private static final Object GENERATION = new Object();

    private final Path dataDirectory;

    private EmbeddedTrinoSecrets(Path dataDirectory) {
        this.dataDirectory = requireNonNull(dataDirectory, "dataDirectory is null");
    }

    public static EmbeddedTrinoSecrets of(Path dataDirectory) {
        return new EmbeddedTrinoSecrets(dataDirectory.toAbsolutePath().normalize());
    }

    /** The password of {@code user}, generated (256 random bits) at the first call for the data folder. */
    public String password(TrinoUser user) {
        requireNonNull(user, "user is null");
        synchronized (GENERATION) {
            return file().secret(user.userName());
        }
    }

    /** The password of {@code user} when the stack has generated it; nothing is generated. */
    public Optional<String> existingPassword(TrinoUser user) {
        return Optional.ofNullable(
                file().load().get(requireNonNull(user, "user is null").userName()));
    }

    /** The secret Trino signs its internal requests with, generated at the first call. */
    public String sharedSecret() {
        synchronized (GENERATION) {
            return file().secret(SHARED_SECRET);
        }
    }

    /** Trino's local CA and server certificate: {@code <data-dir>/trino/tls}. */
    public Path tlsDirectory() {
        return dataDirectory.resolve("trino").resolve("tls");
    }

    /** The CA certificate Trino's clients trust. */
    public Path caCertificate() {
        return tlsDirectory().resolve(LocalCertificateAuthority.CA_CERTIFICATE);
    }

    private SecretFile file() {
        return new SecretFile(
                dataDirectory.resolve("secrets").resolve(FILE),
                "Passwords of the embedded Trino's users and its internal shared secret");
    }
}
