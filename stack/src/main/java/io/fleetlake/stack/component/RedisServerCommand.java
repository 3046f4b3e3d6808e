package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 */
public record RedisServerCommand(
        Optional<Path> executable,
        String host,
        int port,
        Path dataDirectory,
        Optional<String> username,
        Optional<String> password) {
    public RedisServerCommand {
        requireNonNull(executable, "executable is null");
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requirePasswordForUsername(username, password);
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
    }

    public List<String> toCommandLine() {
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
        command.addAll(authenticationArguments(username, password));
        return List.copyOf(command);
    }

    /**
     * The redis-server arguments that require the password: with a username, only that ACL user may connect (the
     * default user is switched off); with a password alone, the default user needs it; with neither, none.
     */
    public static List<String> authenticationArguments(Optional<String> username, Optional<String> password) {
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requirePasswordForUsername(username, password);
        if (password.isPresent() && username.isPresent()) {
            return List.of(
                    "--user",
                    "default",
                    "off",
                    "--user",
                    username.get(),
                    "on",
                    ">" + password.get(),
                    "~*",
                    "&*",
                    "+@all");
        }
        return password.map(value -> List.of("--requirepass", value)).orElse(List.of());
    }

    private static void requirePasswordForUsername(Optional<String> username, Optional<String> password) {
        if (username.isPresent() && password.isEmpty()) {
            throw new IllegalArgumentException("A Redis username needs a password (set redis.password)");
        }
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
