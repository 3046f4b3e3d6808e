package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * A fleet table as a migration history: the schema it is created with, then the columns added since, in order.
 *
 * <p>Tables already live in users' storage, so a definition never changes its initial schema, partitioning or sort
 * order; it only appends to {@link #addedColumns()}. {@link FleetTables#ensure} creates a missing table with the initial
 * schema and then adds each column in its own commit, so every deployment, however many versions it skips, ends with
 * the same schema history: schema 0 is the initial schema, schema 1 adds the first added column, and so on.
 *
 * @param identifier where the table lives in the catalog
 * @param initialSchema the columns the table was first created with; field ids 1..n in column order, which is what
 *     Iceberg assigns to a new table; its identifier fields, if any, are the row key of a table written by upserts
 * @param spec partitioning, built for the initial schema
 * @param sortOrder write sort order, built for the initial schema
 * @param properties table properties set at creation
 * @param addedColumns columns added after the table was first released, oldest first; always optional, the Iceberg
 *     side of the Avro rule that new fields have defaults: rows written before read as null
 */
public record TableDefinition(
        TableIdentifier identifier,
        Schema initialSchema,
        PartitionSpec spec,
        SortOrder sortOrder,
        Map<String, String> properties,
        List<AddedColumn> addedColumns) {

    public TableDefinition {
        requireNonNull(identifier, "identifier is null");
        requireNonNull(initialSchema, "initialSchema is null");
        requireNonNull(spec, "spec is null");
        requireNonNull(sortOrder, "sortOrder is null");
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        addedColumns = List.copyOf(requireNonNull(addedColumns, "addedColumns is null"));
        requireFreshIds(identifier, initialSchema);
        if (spec.isPartitioned()) {
            requireBoundTo(identifier, initialSchema, spec.schema(), "partition spec");
        }
        if (sortOrder.isSorted()) {
            requireBoundTo(identifier, initialSchema, sortOrder.schema(), "sort order");
        }
        requireNewNames(identifier, initialSchema, addedColumns);
    }

    /**
     * The schema of the table once every added column is applied, with the field ids Iceberg assigns to them: the
     * highest id so far plus one, in order, and the identifier fields of the initial schema. A table whose columns were
     * changed by hand may have other ids.
     */
    public Schema latestSchema() {
        List<Types.NestedField> columns = new ArrayList<>(initialSchema.columns());
        int fieldId = initialSchema.highestFieldId();
        for (AddedColumn column : addedColumns) {
            fieldId++;
            columns.add(Types.NestedField.optional(fieldId, column.name(), column.type(), column.doc()));
        }
        // Adding a column keeps the identifier fields; Schema.sameSchema compares them, so they must be kept here too.
        return new Schema(columns, initialSchema.identifierFieldIds());
    }

    /**
     * A column added to a released table. Always optional: rows written before it was added have no value.
     *
     * @param name column name
     * @param type a primitive type; nested types would take more than one field id each
     * @param doc what the column holds, shown by engines and notebooks
     */
    public record AddedColumn(String name, Type type, String doc) {
        public AddedColumn {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(doc, "doc is null");
            if (name.isBlank()) {
                throw new IllegalArgumentException("An added column needs a name");
            }
            if (!type.isPrimitiveType()) {
                throw new IllegalArgumentException(
                        "Added column " + name + " has the nested type " + type + ": add primitive columns only");
            }
        }
    }

    private static void requireFreshIds(TableIdentifier identifier, Schema initialSchema) {
        // Iceberg renumbers the columns of a new table; ids that differ would make the definition lie about the
        // tables it creates and about the ids latestSchema() predicts.
        AtomicInteger lastId = new AtomicInteger();
        Schema assigned = TypeUtil.assignFreshIds(initialSchema, lastId::incrementAndGet);
        if (!assigned.sameSchema(initialSchema)) {
            throw new IllegalArgumentException("The initial schema of " + identifier
                    + " must number its fields 1..n in column order, as Iceberg does for a new table");
        }
    }

    private static void requireBoundTo(TableIdentifier identifier, Schema initialSchema, Schema bound, String what) {
        if (!bound.sameSchema(initialSchema)) {
            throw new IllegalArgumentException(
                    "The " + what + " of " + identifier + " must be built for its initial schema");
        }
    }

    private static void requireNewNames(
            TableIdentifier identifier, Schema initialSchema, List<AddedColumn> addedColumns) {
        Set<String> names = new HashSet<>();
        for (AddedColumn column : addedColumns) {
            if (initialSchema.findField(column.name()) != null || !names.add(column.name())) {
                throw new IllegalArgumentException("Column " + column.name() + " is defined more than once for "
                        + identifier + ": give every added column a name no other column of the table has");
            }
        }
    }
}
