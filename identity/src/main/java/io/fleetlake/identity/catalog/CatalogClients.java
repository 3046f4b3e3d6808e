package io.fleetlake.identity.catalog;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.PasswordHash;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.Secrets;
import io.fleetlake.model.catalog.CatalogRole;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The clients of the Iceberg REST catalog and their roles, in one owner-only file of {@code <client id>=<role>
 * <PBKDF2 hash>} lines ({@link SecretFile}'s format, hashes only: the clear secret is handed out once by {@link
 * #issue} or {@link #rotate} and never stored here). The catalog server reads it at every token request, so a change
 * applies to the next token without a restart.
 */
public final class CatalogClients {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretFile file;

    public CatalogClients(Path file) {
        this.file = new SecretFile(
                requireNonNull(file, "file is null"),
                "Iceberg REST catalog clients: <role> <PBKDF2 hash of the secret> per client id, never a secret");
    }

    public Path path() {
        return file.path();
    }

    /** Every client by id; empty when there is no file yet. */
    public Map<String, CatalogClient> clients() {
        Map<String, CatalogClient> clients = new TreeMap<>();
        file.load().forEach((name, value) -> clients.put(name, CatalogClient.decode(name, value)));
        return clients;
    }

    /** The role of the client whose secret this is; empty for an unknown client or a wrong secret. */
    public Optional<CatalogRole> authenticate(String clientId, String secret) {
        requireNonNull(clientId, "clientId is null");
        requireNonNull(secret, "secret is null");
        CatalogClient client = clients().get(clientId);
        if (client == null || !client.secret().matches(secret)) {
            return Optional.empty();
        }
        return Optional.of(client.role());
    }

    /** The current role of a client, empty once it is revoked. */
    public Optional<CatalogRole> role(String clientId) {
        return Optional.ofNullable(clients().get(clientId)).map(CatalogClient::role);
    }

    /**
     * Adds a client, or gives an existing one this role and a new secret.
     *
     * @return the new secret, in clear, to hand to the client once
     */
    public synchronized IssuedSecret issue(String clientId, CatalogRole role) {
        String secret = Secrets.generate(RANDOM);
        register(clientId, role, secret);
        return new IssuedSecret(clientId, secret);
    }

    /**
     * Adds a client with a secret generated elsewhere, or gives an existing one this role and secret: the compose
     * deployment's secrets live in its {@code .env} ({@code fleet secrets init}), and only their hashes come here.
     */
    public synchronized void register(String clientId, CatalogRole role, String secret) {
        requireNonNull(role, "role is null");
        requireNonNull(secret, "secret is null");
        CatalogClient client = new CatalogClient(clientId, role, PasswordHash.of(secret, RANDOM));
        Map<String, String> lines = file.load();
        lines.put(client.name(), client.encoded());
        file.store(lines);
    }

    /**
     * A new secret for an existing client, same role; its old secret gets no token any more.
     *
     * @throws IllegalArgumentException when there is no such client
     */
    public synchronized IssuedSecret rotate(String clientId) {
        CatalogRole role = role(clientId)
                .orElseThrow(() -> new IllegalArgumentException("No catalog client " + clientId + " in " + path()));
        return issue(clientId, role);
    }

    /** Removes a client: it gets no new token, and its tokens are refused. @return whether it existed */
    public synchronized boolean revoke(String clientId) {
        Map<String, String> lines = file.load();
        boolean removed = lines.remove(clientId) != null;
        if (removed) {
            file.store(lines);
        }
        return removed;
    }
}
