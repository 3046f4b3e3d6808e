package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.identity.PasswordHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The registry as a JSON file, readable and writable by its owner only (mode 0600 in a 0700 folder): the embedded
 * broker reads it (and reads it again when it changes), {@code fleet devices} and the stack change it.
 *
 * <pre>{@code
 * {
 *   "format" : 1,
 *   "principals" : [ {
 *     "name" : "VH-0001", "kind" : "device", "secret" : "$7$1000$<salt>$<hash>",
 *     "created" : "2026-12-01T10:00:00Z", "secret_changed" : "2026-12-01T10:00:00Z"
 *   }, {
 *     "name" : "depot-madrid", "kind" : "gateway", "secret" : "$7$...", "vehicles" : [ "VH-0007" ],
 *     "prefixes" : [ "MAD-" ], "created" : "...", "secret_changed" : "..."
 *   } ]
 * }
 * }</pre>
 *
 * <p>Every change is a read-modify-write under an exclusive lock on a sibling {@code .lock} file, so two commands
 * never lose each other's change, and the new content replaces the old one by an atomic rename, so a reader sees the
 * old or the new registry, never half of one.
 */
public final class RegistryFile {
    public static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path path;

    public RegistryFile(Path path) {
        this.path = requireNonNull(path, "path is null").toAbsolutePath();
    }

    public Path path() {
        return path;
    }

    /** The registry; {@link PrincipalRegistry#EMPTY} when the file does not exist yet. */
    public PrincipalRegistry load() {
        try {
            return parse(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            return PrincipalRegistry.EMPTY;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the MQTT principals in " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * What identifies the file's current content cheaply (modification time, size and file key, which an atomic
     * replacement changes), to decide whether to read it again; empty when it does not exist.
     */
    public Optional<Object> stamp() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return Optional.of(List.of(
                    attributes.lastModifiedTime().toMillis(), attributes.size(), String.valueOf(attributes.fileKey())));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the attributes of " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Applies {@code change} to the current registry and writes the result, under the lock.
     *
     * @return the registry written
     */
    public PrincipalRegistry update(UnaryOperator<PrincipalRegistry> change) {
        requireNonNull(change, "change is null");
        try {
            OwnerOnlyFiles.createFolder(path.getParent());
            Path lockFile = path.resolveSibling(path.getFileName() + ".lock");
            // A file lock excludes other processes only; within this JVM a second lock on the same file would throw
            // OverlappingFileLockException, so threads (of any instance for this path) take turns first.
            synchronized (lockFile.toString().intern()) {
                try (FileChannel channel =
                                FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        FileLock lock = channel.lock()) {
                    PrincipalRegistry changed = change.apply(load());
                    write(changed);
                    return changed;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot change the MQTT principals in " + path + ": " + e.getMessage(), e);
        }
    }

    private void write(PrincipalRegistry registry) throws IOException {
        OwnerOnlyFiles.write(path, JSON.writeValueAsBytes(Document.of(registry)));
    }

    static PrincipalRegistry parse(byte[] content) throws IOException {
        Document document = JSON.readValue(content, Document.class);
        if (document.format() != FORMAT) {
            throw new IOException("Unsupported MQTT principals format " + document.format() + "; expected " + FORMAT);
        }
        List<Principal> principals = new ArrayList<>();
        for (Entry entry : document.principals() == null ? List.<Entry>of() : document.principals()) {
            try {
                principals.add(entry.toPrincipal());
            } catch (RuntimeException e) {
                throw new IOException("Invalid principal " + entry.name() + ": " + e.getMessage(), e);
            }
        }
        try {
            return PrincipalRegistry.of(principals);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    record Document(@JsonProperty("format") int format, @JsonProperty("principals") List<Entry> principals) {
        static Document of(PrincipalRegistry registry) {
            return new Document(
                    FORMAT, registry.principals().stream().map(Entry::of).toList());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record Entry(
            @JsonProperty("name") String name,
            @JsonProperty("kind") String kind,
            @JsonProperty("secret") String secret,
            @JsonProperty("vehicles") List<String> vehicles,
            @JsonProperty("prefixes") List<String> prefixes,
            @JsonProperty("created") String created,
            @JsonProperty("secret_changed") String secretChanged) {
        static Entry of(Principal principal) {
            return new Entry(
                    principal.name(),
                    principal.kind().label(),
                    principal.secret().encoded(),
                    List.copyOf(principal.grant().vehicles()),
                    List.copyOf(principal.grant().prefixes()),
                    principal.created().toString(),
                    principal.secretChanged().toString());
        }

        Principal toPrincipal() {
            return new Principal(
                    name,
                    PrincipalKind.parse(kind),
                    new PasswordHash(requireNonNull(secret, "secret is missing")),
                    new VehicleGrant(
                            new TreeSet<>(vehicles == null ? List.of() : vehicles),
                            new TreeSet<>(prefixes == null ? List.of() : prefixes)),
                    Instant.parse(requireNonNull(created, "created is missing")),
                    Instant.parse(requireNonNull(secretChanged, "secret_changed is missing")));
        }
    }
}
