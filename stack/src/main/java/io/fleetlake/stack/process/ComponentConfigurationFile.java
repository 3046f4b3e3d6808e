package io.fleetlake.stack.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * The configuration file the stack writes for a component it launches ({@code --config <file>}): the comment lines,
 * then {@code key=value} lines in the map's order with backslashes doubled (the one character of these values that
 * {@link java.util.Properties#load} would read as an escape). A new file is created owner-only (mode 0600), as it may
 * hold secrets; an existing one is rewritten in place.
 */
public final class ComponentConfigurationFile {
    private ComponentConfigurationFile() {}

    /** Writes {@code configuration} to {@code file}, each of {@code comments} as a {@code #} line before it. */
    public static void write(Path file, List<String> comments, Map<String, String> configuration) {
        requireNonNull(file, "file is null");
        requireNonNull(comments, "comments is null");
        requireNonNull(configuration, "configuration is null");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (!Files.exists(file)) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            try (Writer writer = Files.newBufferedWriter(file)) {
                for (String comment : comments) {
                    writer.write("# " + comment + "\n");
                }
                for (Map.Entry<String, String> entry : configuration.entrySet()) {
                    writer.write(entry.getKey() + "=" + entry.getValue().replace("\\", "\\\\") + "\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
