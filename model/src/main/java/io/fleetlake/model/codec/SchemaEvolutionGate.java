package io.fleetlake.model.codec;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * The rules every new {@code Position} schema version must follow against every earlier one, so that a firmware update
 * never stops the pipeline and old payloads stay readable:
 *
 * <ul>
 *   <li>a new field has a default (old payloads resolve to it);
 *   <li>no field is removed (new payloads stay readable by pipelines that still expect it);
 *   <li>no field changes its type, not even a promotion Avro would allow (the Iceberg column keeps its type).
 * </ul>
 *
 * <p>On top of these rules, Avro's own resolution must succeed in both directions. Removal passes Avro's BACKWARD check
 * and fails only FORWARD, which is why both are checked.
 */
public final class SchemaEvolutionGate {
    private SchemaEvolutionGate() {}

    /** Every violation of every version against every earlier one; empty when the history is sound. */
    public static List<Violation> check(PositionSchemas schemas) {
        List<Violation> violations = new ArrayList<>();
        List<SchemaVersion> versions = schemas.versions();
        for (int newer = 1; newer < versions.size(); newer++) {
            for (int older = 0; older < newer; older++) {
                violations.addAll(check(versions.get(older), versions.get(newer)));
            }
        }
        return List.copyOf(violations);
    }

    static List<Violation> check(SchemaVersion older, SchemaVersion newer) {
        List<Violation> violations = new ArrayList<>();
        Schema oldSchema = older.schema();
        Schema newSchema = newer.schema();
        for (Schema.Field field : newSchema.getFields()) {
            Schema.Field previous = oldSchema.getField(field.name());
            if (previous == null && !field.hasDefaultValue()) {
                violations.add(new Violation(
                        newer.file(),
                        field.name(),
                        "adds field '" + field.name() + "' without a default; payloads of " + older.file()
                                + " could not be read. Give it a default, e.g. [\"null\", ...] with default null"));
            } else if (previous != null && !sameType(previous.schema(), field.schema())) {
                violations.add(new Violation(
                        newer.file(),
                        field.name(),
                        "changes the type of field '" + field.name() + "' from " + previous.schema() + " ("
                                + older.file() + ") to " + field.schema() + "; add a new field instead"));
            }
        }
        for (Schema.Field previous : oldSchema.getFields()) {
            if (newSchema.getField(previous.name()) == null) {
                violations.add(new Violation(
                        newer.file(),
                        previous.name(),
                        "removes field '" + previous.name() + "' of " + older.file()
                                + "; released fields are never removed"));
            }
        }
        if (violations.isEmpty()) {
            violations.addAll(avroResolution(older, newer));
        }
        return violations;
    }

    private static List<Violation> avroResolution(SchemaVersion older, SchemaVersion newer) {
        List<Violation> violations = new ArrayList<>();
        var backward = SchemaCompatibility.checkReaderWriterCompatibility(newer.schema(), older.schema());
        if (backward.getType() != SchemaCompatibilityType.COMPATIBLE) {
            violations.add(new Violation(
                    newer.file(),
                    "*",
                    "cannot read payloads written with " + older.file() + ": " + backward.getDescription()));
        }
        var forward = SchemaCompatibility.checkReaderWriterCompatibility(older.schema(), newer.schema());
        if (forward.getType() != SchemaCompatibilityType.COMPATIBLE) {
            violations.add(new Violation(
                    newer.file(),
                    "*",
                    "payloads cannot be read with " + older.file() + ": " + forward.getDescription()));
        }
        return violations;
    }

    /** Same Avro type, ignoring documentation and other properties. */
    private static boolean sameType(Schema left, Schema right) {
        return Objects.equals(
                        org.apache.avro.SchemaNormalization.toParsingForm(left),
                        org.apache.avro.SchemaNormalization.toParsingForm(right))
                && Objects.equals(left.getLogicalType(), right.getLogicalType());
    }

    /**
     * One broken rule.
     *
     * @param schema the schema file that breaks it
     * @param field the field concerned, or {@code *} for the schema as a whole
     */
    public record Violation(String schema, String field, String message) {
        public Violation {
            requireNonNull(schema, "schema is null");
            requireNonNull(field, "field is null");
            requireNonNull(message, "message is null");
        }

        @Override
        public String toString() {
            return schema + ": " + message;
        }
    }
}
