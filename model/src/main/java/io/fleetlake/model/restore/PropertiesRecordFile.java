package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * A small record of where a job stands, kept as a UTF-8 properties file that another process may read at any moment:
 * it is written to a new file beside the old one and moved over it, so that a reader never sees half a record. The one
 * way the handover savepoint ({@link HandoverSavepoint}) and the stack's record of its cluster job are kept.
 */
public final class PropertiesRecordFile {
    private PropertiesRecordFile() {}

    /**
     * The record in {@code file}, or empty when there is none.
     *
     * @throws UncheckedIOException when the file exists but cannot be read
     */
    public static Optional<Properties> read(Path file) {
        requireNonNull(file, "file is null");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return Optional.of(properties);
    }

    /**
     * Replaces the record in {@code file} with {@code properties} (creating its folder), {@code comment} as the file's
     * first line.
     *
     * @throws UncheckedIOException when it cannot be written; the old record then stays as it was
     */
    public static void write(Path file, Properties properties, String comment) {
        requireNonNull(file, "file is null");
        requireNonNull(properties, "properties is null");
        requireNonNull(comment, "comment is null");
        Path directory = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(directory);
            Path next = Files.createTempFile(directory, file.getFileName().toString(), ".next");
            try (Writer writer = Files.newBufferedWriter(next, StandardCharsets.UTF_8)) {
                properties.store(writer, comment);
            }
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
