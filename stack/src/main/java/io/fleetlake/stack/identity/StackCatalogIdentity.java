package io.fleetlake.stack.identity;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.Secrets;
import io.fleetlake.identity.catalog.CatalogClient;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST catalog's clients in the embedded stack, one per role, created on the first start of a data folder
 * without any manual step: {@value #READER} (notebooks, {@code fleet verify} and {@code status},
 * the exporter), {@value #WRITER} (the pipeline, backfills, the daily summary, the bench's peer table), {@value
 * #MAINTAINER} (table maintenance, {@code fleet maintain}, {@code fleet geocode}) and {@value #ADMIN} (nothing runs
 * with it; for the operator and the tests). Their clear secrets and the key the catalog signs tokens with are kept in
 * {@code <data-dir>/secrets/catalog.properties} (owner-only), the catalog's clients file (hashes only) in {@code
 * <data-dir>/catalog/clients.properties}; components get their credential in their owner-only configuration files,
 * never on a command line and never in a log.
 *
 * <p>Every start checks each client against the clients file and issues a new secret for one that is missing or whose
 * stored secret no longer matches: to rotate a secret, delete its line from the secrets file and start the stack.
 */
public final class StackCatalogIdentity {
    private static final Logger LOG = LoggerFactory.getLogger(StackCatalogIdentity.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** One repair at a time in this process, whichever component asks first. */
    private static final Object ENSURING = new Object();

    public static final String READER = "fleet-reader";
    public static final String WRITER = "fleet-writer";
    public static final String MAINTAINER = "fleet-maintainer";
    public static final String ADMIN = "fleet-admin";

    static final String SECRETS_FILE = "catalog.properties";
    static final String CLIENTS_FILE = "clients.properties";
    /** The entry of the secrets file holding the HMAC key the catalog signs its tokens with. */
    static final String SIGNING_KEY = "token-signing-key";

    private static final Map<CatalogRole, String> CLIENTS = new EnumMap<>(Map.of(
            CatalogRole.READER, READER,
            CatalogRole.WRITER, WRITER,
            CatalogRole.MAINTAINER, MAINTAINER,
            CatalogRole.ADMIN, ADMIN));

    private final SecretFile secrets;
    private final CatalogClients clients;
    private final String catalogUri;

    private StackCatalogIdentity(SecretFile secrets, CatalogClients clients, String catalogUri) {
        this.secrets = secrets;
        this.clients = clients;
        this.catalogUri = catalogUri;
    }

    /** The catalog identity of the stack of {@code settings}, without changing anything. */
    public static StackCatalogIdentity of(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        return new StackCatalogIdentity(
                new SecretFile(
                        settings.dataDirectory().resolve("secrets").resolve(SECRETS_FILE),
                        "Iceberg REST catalog clients of the embedded stack and the catalog's token signing key"),
                new CatalogClients(clientsFile(settings)),
                settings.catalogUri());
    }

    /** The catalog's clients file: {@code <data-dir>/catalog/clients.properties}. */
    public static Path clientsFile(StackSettings settings) {
        return settings.componentDirectory(FleetStack.CATALOG).resolve(CLIENTS_FILE);
    }

    /** Creates or repairs the stack's catalog clients and the signing key (see the class comment). */
    public StackCatalogIdentity ensure() {
        synchronized (ENSURING) {
            ensureClients();
        }
        return this;
    }

    private void ensureClients() {
        Map<String, String> stored = secrets.load();
        Map<String, CatalogClient> registered = clients.clients();
        boolean changed = false;
        for (Map.Entry<CatalogRole, String> client : CLIENTS.entrySet()) {
            String name = client.getValue();
            CatalogClient existing = registered.get(name);
            String secret = stored.get(name);
            if (existing != null
                    && existing.role() == client.getKey()
                    && secret != null
                    && existing.secret().matches(secret)) {
                continue;
            }
            LOG.info("Issuing a secret for the stack's catalog client {} ({})", name, client.getKey());
            IssuedSecret issued = clients.issue(name, client.getKey());
            stored.put(name, issued.secret());
            changed = true;
        }
        if (!stored.containsKey(SIGNING_KEY)) {
            stored.put(SIGNING_KEY, Secrets.generate(RANDOM));
            changed = true;
        }
        if (changed) {
            secrets.store(stored);
        }
    }

    /**
     * The credential of the stack's client of {@code role}.
     *
     * @throws IllegalStateException when the stack never created it: start the stack once ({@code fleet up})
     */
    public CatalogCredential credential(CatalogRole role) {
        requireNonNull(role, "role is null");
        String name = CLIENTS.get(role);
        String secret = secrets.load().get(name);
        if (secret == null) {
            throw new IllegalStateException("No secret for the catalog client " + name + " in " + secrets.path()
                    + ": start the stack once (fleet up) to create it");
        }
        return new CatalogCredential(name, secret);
    }

    /** The credential of the stack's client of {@code role}, empty while the stack never created it. */
    public Optional<CatalogCredential> credentialIfCreated(CatalogRole role) {
        requireNonNull(role, "role is null");
        String name = CLIENTS.get(role);
        return Optional.ofNullable(secrets.load().get(name)).map(secret -> new CatalogCredential(name, secret));
    }

    /** Iceberg REST client properties authenticating as the stack's client of {@code role}. */
    public Map<String, String> clientProperties(CatalogRole role) {
        return CatalogAuthentication.clientProperties(catalogUri, credential(role));
    }

    /** The catalog's clients file, for {@code fleet catalog-clients}. */
    public CatalogClients clients() {
        return clients;
    }

    /**
     * Records a secret issued by hand ({@code fleet catalog-clients rotate}) for one of the stack's own clients, so that
     * its components get it at their next start.
     *
     * @return whether {@code issued} is one of the stack's clients
     */
    public boolean remember(IssuedSecret issued) {
        requireNonNull(issued, "issued is null");
        if (!CLIENTS.containsValue(issued.name())) {
            return false;
        }
        Map<String, String> stored = secrets.load();
        stored.put(issued.name(), issued.secret());
        secrets.store(stored);
        return true;
    }

    /** The HMAC key the catalog signs its tokens with, so that tokens outlive a restart of the catalog. */
    public String signingKey() {
        String key = secrets.load().get(SIGNING_KEY);
        if (key == null) {
            throw new IllegalStateException("No token signing key in " + secrets.path() + ": start the stack once");
        }
        return key;
    }
}
