package io.fleetlake.model.codec;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * Every version of the {@code Position} Avro schema, in the order they were released. Versions live in
 * {@code io/fleetlake/model/avro/position-v*.avsc}; {@code position-versions.txt} lists them, oldest first. A released
 * version is never edited: a new firmware field means a new file.
 */
public final class PositionSchemas implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final String RESOURCE_DIRECTORY = "/io/fleetlake/model/avro/";
    private static final String INDEX = RESOURCE_DIRECTORY + "position-versions.txt";

    private final List<SchemaVersion> versions;

    private PositionSchemas(List<SchemaVersion> versions) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("No Position schema versions");
        }
        this.versions = List.copyOf(versions);
    }

    /** The versions shipped with this build. */
    public static PositionSchemas bundled() {
        List<SchemaVersion> versions = new ArrayList<>();
        for (String file : readIndex()) {
            versions.add(new SchemaVersion(versions.size() + 1, file, parse(file)));
        }
        return new PositionSchemas(versions);
    }

    /** The given schemas as versions 1..n, for example to test evolution rules. */
    public static PositionSchemas of(List<Schema> schemas) {
        List<SchemaVersion> versions = new ArrayList<>();
        for (Schema schema : schemas) {
            versions.add(new SchemaVersion(versions.size() + 1, "v" + (versions.size() + 1), schema));
        }
        return new PositionSchemas(versions);
    }

    /**
     * These versions plus one more, numbered after the last: for schemas that arrive after a release (for example
     * from a directory the pipeline is configured with). Check the result with {@link SchemaEvolutionGate}.
     */
    public PositionSchemas plus(String file, Schema schema) {
        List<SchemaVersion> extended = new ArrayList<>(versions);
        extended.add(new SchemaVersion(versions.size() + 1, file, schema));
        return new PositionSchemas(extended);
    }

    public List<SchemaVersion> versions() {
        return versions;
    }

    public SchemaVersion latest() {
        return versions.get(versions.size() - 1);
    }

    public SchemaVersion version(int number) {
        if (number < 1 || number > versions.size()) {
            throw new IllegalArgumentException(
                    "Position schema version " + number + " does not exist (known: 1.." + versions.size() + ")");
        }
        return versions.get(number - 1);
    }

    public Optional<SchemaVersion> byFingerprint(long fingerprint) {
        return versions.stream()
                .filter(version -> version.fingerprint() == fingerprint)
                .findFirst();
    }

    private static List<String> readIndex() {
        try (InputStream in = resource(INDEX);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + INDEX, e);
        }
    }

    private static Schema parse(String file) {
        try (InputStream in = resource(RESOURCE_DIRECTORY + file)) {
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Position schema " + file, e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = PositionSchemas.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("Resource " + name + " is missing from the model jar");
        }
        return in;
    }

    /**
     * One released schema.
     *
     * @param number 1 for the first release
     * @param file resource file name, for messages
     * @param schema the parsed schema
     * @param fingerprint CRC-64-AVRO fingerprint of the parsing canonical form, as written in single-object messages
     */
    public record SchemaVersion(int number, String file, Schema schema, long fingerprint) implements Serializable {
        public SchemaVersion {
            requireNonNull(file, "file is null");
            requireNonNull(schema, "schema is null");
        }

        SchemaVersion(int number, String file, Schema schema) {
            this(number, file, schema, SchemaNormalization.parsingFingerprint64(schema));
        }
    }
}
