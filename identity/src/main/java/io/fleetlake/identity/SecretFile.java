package io.fleetlake.identity;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Generated secrets kept by a launcher for the principals it runs itself (the embedded stack's pipeline, catalog
 * clients, Trino users...), one owner-only properties file of {@code name=secret} lines per surface, such as {@code
 * <data-dir>/secrets/catalog.properties}. The secrets are handed to components through their owner-only configuration
 * files, never on a command line and never logged.
 */
public final class SecretFile {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path file;
    private final String description;

    /**
     * @param description what the secrets are for, written at the top of the file, e.g. {@code "Iceberg REST catalog
     *     clients of the embedded stack"}
     */
    public SecretFile(Path file, String description) {
        this.file = requireNonNull(file, "file is null");
        this.description = requireNonNull(description, "description is null");
    }

    public Path path() {
        return file;
    }

    /** Every secret of the file by name; empty when there is no file yet. */
    public synchronized Map<String, String> load() {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new TreeMap<>();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the secrets in " + file + ": " + e.getMessage(), e);
        }
        Properties properties = new Properties();
        try (Reader reader = new StringReader(text)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the secrets in " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> secrets = new TreeMap<>();
        properties.forEach((key, value) -> secrets.put((String) key, (String) value));
        return secrets;
    }

    /** Replaces the file's secrets with {@code secrets} (owner-only, atomically). */
    public synchronized void store(Map<String, String> secrets) {
        requireNonNull(secrets, "secrets is null");
        StringBuilder content = new StringBuilder("# ").append(description).append(" (name=secret); owner-only.\n");
        new TreeMap<>(secrets).forEach((name, secret) -> {
            if (name.contains("=") || name.contains(":") || name.isBlank() || secret.contains("\n")) {
                throw new IllegalArgumentException("Not a secret's name or value: " + name);
            }
            content.append(name).append('=').append(secret).append('\n');
        });
        try {
            OwnerOnlyFiles.write(file, content.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the secrets to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The secret called {@code name}, generated ({@link Secrets}) and stored at the first call. */
    public synchronized String secret(String name) {
        requireNonNull(name, "name is null");
        Map<String, String> secrets = load();
        String existing = secrets.get(name);
        if (existing != null) {
            return existing;
        }
        String generated = Secrets.generate(RANDOM);
        secrets.put(name, generated);
        store(secrets);
        return generated;
    }
}
