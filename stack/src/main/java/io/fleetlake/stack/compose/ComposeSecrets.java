package io.fleetlake.stack.compose;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.identity.Secrets;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The secrets of the compose deployment ({@code docker-compose.yml}): its {@code .env}, written from {@code
 * .env.example} with every {@code change-me...} value replaced by a generated secret ({@link Secrets}: 256 random bits,
 * URL-safe, 43 characters), and the files derived from it that a container cannot derive itself.
 *
 * <p>Generic by design: whichever service adds a {@code NAME=change-me-...} line to {@code .env.example} gets a secret
 * without a change here. The one derived file is the Iceberg REST catalog's clients file ({@value #CATALOG_CLIENTS}):
 * PBKDF2 hashes of the {@code CATALOG_*_SECRET} values, which the catalog container reads.
 */
public final class ComposeSecrets {
    /** A value of {@code .env.example} starting with this is a secret to generate; the preflight refuses it. */
    public static final String PLACEHOLDER = "change-me";

    public static final String EXAMPLE_FILE = ".env.example";
    public static final String ENVIRONMENT_FILE = ".env";
    /** The catalog's clients file, relative to the compose folder; mounted into the catalog container. */
    public static final String CATALOG_CLIENTS = "deploy/catalog/clients.properties";

    /** The compose deployment's catalog clients: the {@code .env} variable holding the secret, the client, its role. */
    static final Map<String, ComposeCatalogClient> CATALOG_CLIENT_SECRETS = catalogClients();

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;

    private ComposeSecrets(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** The secrets of the compose deployment in {@code directory}, the folder of {@code docker-compose.yml}. */
    public static ComposeSecrets in(Path directory) {
        return new ComposeSecrets(directory);
    }

    /**
     * Writes {@code .env} from {@code .env.example} with generated secrets and renders the derived files.
     *
     * @return the names of the generated variables
     * @throws IllegalStateException when {@code .env} exists (see {@link #initialiseReplacing()})
     */
    public List<String> initialise() {
        if (Files.exists(environmentFile())) {
            throw new IllegalStateException(environmentFile() + " exists: its secrets are in use. Rotate single ones"
                    + " with fleet secrets rotate NAME, or replace them all with --force");
        }
        return initialiseReplacing();
    }

    /** Like {@link #initialise()}, replacing an existing {@code .env} and so every secret in it. */
    public List<String> initialiseReplacing() {
        EnvironmentFile example = EnvironmentFile.parse(read(exampleFile()));
        Map<String, String> generated = new LinkedHashMap<>();
        example.values().forEach((name, value) -> {
            if (value.startsWith(PLACEHOLDER)) {
                generated.put(name, Secrets.generate(RANDOM));
            }
        });
        EnvironmentFile environment = example.with(generated);
        write(environment);
        renderCatalogClients(environment);
        return List.copyOf(generated.keySet());
    }

    /**
     * Replaces the secrets {@code names} of {@code .env} with new ones and renders the derived files again; the
     * services use them from their next start ({@code docker compose up -d} recreates the changed ones).
     *
     * @throws IllegalArgumentException for a name that is not a secret of {@code .env.example}
     */
    public List<String> rotate(Collection<String> names) {
        requireNonNull(names, "names is null");
        if (names.isEmpty()) {
            throw new IllegalArgumentException("Name the secrets to rotate, for example REDIS_PASSWORD");
        }
        Map<String, String> example = EnvironmentFile.parse(read(exampleFile())).values();
        EnvironmentFile environment = EnvironmentFile.parse(read(environmentFile()));
        Map<String, String> generated = new LinkedHashMap<>();
        for (String name : names) {
            String exampleValue = example.get(name);
            if (exampleValue == null || !exampleValue.startsWith(PLACEHOLDER)) {
                throw new IllegalArgumentException(name + " is not a secret of " + exampleFile() + " (a NAME="
                        + PLACEHOLDER + "-... line): nothing to rotate");
            }
            if (!environment.values().containsKey(name)) {
                throw new IllegalArgumentException(
                        name + " is missing from " + environmentFile() + ": add it from " + EXAMPLE_FILE + " first");
            }
            generated.put(name, Secrets.generate(RANDOM));
        }
        EnvironmentFile rotated = environment.with(generated);
        write(rotated);
        renderCatalogClients(rotated);
        return List.copyOf(generated.keySet());
    }

    public Path environmentFile() {
        return directory.resolve(ENVIRONMENT_FILE);
    }

    public Path exampleFile() {
        return directory.resolve(EXAMPLE_FILE);
    }

    public Path catalogClientsFile() {
        return directory.resolve(CATALOG_CLIENTS);
    }

    private void renderCatalogClients(EnvironmentFile environment) {
        Map<String, String> values = environment.values();
        List<String> missing = new ArrayList<>();
        CATALOG_CLIENT_SECRETS.keySet().forEach(name -> {
            if (!values.containsKey(name)) {
                missing.add(name);
            }
        });
        if (missing.size() == CATALOG_CLIENT_SECRETS.size()) {
            // A compose file without the catalog's clients (an older .env.example): nothing to derive.
            return;
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("The catalog's clients need " + missing + " in " + environmentFile());
        }
        CatalogClients clients = new CatalogClients(catalogClientsFile());
        CATALOG_CLIENT_SECRETS.forEach(
                (name, client) -> clients.register(client.id(), client.role(), values.get(name)));
        try {
            // Hashes only (PBKDF2 of 256 random bits), and the catalog's container user is not the host user that
            // owns the bind-mounted file: it must be readable by others.
            Files.setPosixFilePermissions(catalogClientsFile(), PosixFilePermissions.fromString("rw-r--r--"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot make " + catalogClientsFile() + " readable by the catalog", e);
        }
    }

    private void write(EnvironmentFile environment) {
        try {
            OwnerOnlyFiles.write(environmentFile(), environment.render().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + environmentFile() + ": " + e.getMessage(), e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException(
                    file + " does not exist: run in the folder of docker-compose.yml"
                            + " (the checkout) or name it with --dir",
                    e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, ComposeCatalogClient> catalogClients() {
        Map<String, ComposeCatalogClient> clients = new LinkedHashMap<>();
        clients.put("CATALOG_READER_SECRET", new ComposeCatalogClient(StackCatalogIdentity.READER, CatalogRole.READER));
        clients.put("CATALOG_WRITER_SECRET", new ComposeCatalogClient(StackCatalogIdentity.WRITER, CatalogRole.WRITER));
        clients.put(
                "CATALOG_MAINTAINER_SECRET",
                new ComposeCatalogClient(StackCatalogIdentity.MAINTAINER, CatalogRole.MAINTAINER));
        clients.put("CATALOG_ADMIN_SECRET", new ComposeCatalogClient(StackCatalogIdentity.ADMIN, CatalogRole.ADMIN));
        return Map.copyOf(clients);
    }

    /** A catalog client of the compose deployment. */
    record ComposeCatalogClient(String id, CatalogRole role) {
        ComposeCatalogClient {
            requireNonNull(id, "id is null");
            requireNonNull(role, "role is null");
        }
    }
}
