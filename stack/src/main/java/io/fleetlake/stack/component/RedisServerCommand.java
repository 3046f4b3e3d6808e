package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.OwnerOnlyFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.embedded.core.ExecutableProvider;

/**
 * Command line of a real redis-server: a configured binary (for example the system's), or the one bundled in the
 * embedded-redis artifact, extracted under the data directory. The append-only file keeps the current state across
 * restarts.
 *
 * <p>No secret is on the command line ({@code ps} shows it to every local user): the users and their passwords'
 * hashes are in the ACL file, {@value #ACL_FILE} in the data directory, written owner-only by {@link #toCommandLine()}
 * at every start from {@code acl} (the content of {@link io.fleetlake.redis.RedisAcl}). {@code maxmemory} with {@code
 * maxmemory-policy noeviction}: past the limit Redis refuses writes with an OOM error instead of evicting a vehicle's
 * state.
 *
 * @param maxMemory a Redis size, such as {@code 256mb}
 */
public record RedisServerCommand(
        Optional<Path> executable, String host, int port, Path dataDirectory, String acl, String maxMemory) {
    /** The ACL file in the data directory. */
    public static final String ACL_FILE = "users.acl";

    public RedisServerCommand {
        requireNonNull(executable, "executable is null");
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(acl, "acl is null");
        requireNonNull(maxMemory, "maxMemory is null");
    }

    /** Writes the ACL file (owner-only) and returns the command line, which names it. */
    public List<String> toCommandLine() {
        Path aclFile = dataDirectory.resolve(ACL_FILE);
        try {
            OwnerOnlyFiles.write(aclFile, acl.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Redis ACL file " + aclFile + ": " + e.getMessage(), e);
        }
        List<String> command = new ArrayList<>(List.of(
                binary().toString(),
                "--bind",
                host,
                "--port",
                Integer.toString(port),
                "--dir",
                dataDirectory.toString(),
                "--appendonly",
                "yes",
                "--save",
                ""));
        command.addAll(limitArguments(maxMemory));
        command.addAll(List.of("--aclfile", aclFile.toString()));
        return List.copyOf(command);
    }

    /** The memory limit and the policy that never evicts silently, as redis-server arguments. */
    public static List<String> limitArguments(String maxMemory) {
        requireNonNull(maxMemory, "maxMemory is null");
        return List.of("--maxmemory", maxMemory, "--maxmemory-policy", "noeviction");
    }

    private Path binary() {
        if (executable.isPresent()) {
            if (!Files.isExecutable(executable.get())) {
                throw new IllegalStateException("Redis executable " + executable.get() + " (stack.redis-executable)"
                        + " does not exist or is not executable");
            }
            return executable.get();
        }
        try {
            Path binaries = Files.createDirectories(dataDirectory.resolve("bin"));
            File extracted =
                    ExecutableProvider.newJarResourceProvider(binaries::toFile).get();
            return extracted.toPath();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract the redis-server bundled with embedded-redis", e);
        }
    }
}
