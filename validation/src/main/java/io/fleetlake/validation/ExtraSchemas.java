package io.fleetlake.validation;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.model.codec.PositionSchemas;
import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;
import io.fleetlake.model.codec.SchemaEvolutionGate;
import io.fleetlake.model.codec.SchemaEvolutionGate.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Position schemas an operator adds without a new release (a firmware started sending one and its messages were
 * dead-lettered as UNKNOWN_SCHEMA): every {@code *.avsc} of a directory, appended in file-name order, and accepted only
 * when the whole history still passes the {@link SchemaEvolutionGate}.
 */
final class ExtraSchemas {
    private static final Logger LOG = LoggerFactory.getLogger(ExtraSchemas.class);

    private ExtraSchemas() {}

    static PositionSchemas append(PositionSchemas known, Path directory) {
        Path absolute = directory.toAbsolutePath();
        PositionSchemas result = known;
        for (Path file : schemaFiles(absolute)) {
            Schema schema = parse(file);
            Optional<SchemaVersion> same = result.byFingerprint(SchemaNormalization.parsingFingerprint64(schema));
            if (same.isPresent()) {
                // A release may bundle a schema an operator added earlier; keeping the file must not break startup.
                LOG.info(
                        "Position schema {} is already known as version {} ({}); not added again",
                        file,
                        same.get().number(),
                        same.get().file());
                continue;
            }
            result = result.plus(file.getFileName().toString(), schema);
        }
        List<Violation> violations = SchemaEvolutionGate.check(result);
        if (!violations.isEmpty()) {
            throw new ConfigException("Position schemas in " + absolute + " (" + ValidationRules.EXTRA_SCHEMA_DIRECTORY
                    + ") break the schema evolution rules: "
                    + violations.stream().map(Violation::toString).collect(Collectors.joining("; "))
                    + ". Fix or remove the file; payloads of that schema stay in the dead-letter topic until then");
        }
        return result;
    }

    private static List<Path> schemaFiles(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new ConfigException(ValidationRules.EXTRA_SCHEMA_DIRECTORY + " = '" + directory
                    + "' is not a directory: create it or remove the setting");
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(file -> file.getFileName().toString().endsWith(".avsc"))
                    .filter(Files::isRegularFile)
                    .sorted(Comparator.comparing(file -> file.getFileName().toString()))
                    .toList();
        } catch (IOException e) {
            throw new ConfigException("Cannot list Position schema directory " + directory + ": " + e.getMessage(), e);
        }
    }

    private static Schema parse(Path file) {
        Schema schema;
        try {
            // A new parser per file: one parser refuses a second definition of the same record name.
            schema = new Schema.Parser().parse(file.toFile());
        } catch (IOException | AvroRuntimeException e) {
            throw new ConfigException(
                    "Position schema file " + file + " is not a valid Avro schema: " + e.getMessage(), e);
        }
        if (schema.getType() != Schema.Type.RECORD) {
            throw new ConfigException("Position schema file " + file + " holds a " + schema.getType()
                    + " schema; a Position schema is a record");
        }
        return schema;
    }
}
