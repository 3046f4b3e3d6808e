package io.fleetlake.catalog;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.catalog.TableDefinition.AddedColumn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TableDefinitionTest {
    private static final TableIdentifier IDENTIFIER = TableIdentifier.of("fleet", "trips");
    private static final Schema INITIAL = new Schema(
            required(1, "trip_id", Types.StringType.get()), optional(2, "started_at", Types.TimestampType.withZone()));
    private static final AddedColumn DRIVER = new AddedColumn("driver_id", Types.StringType.get(), "Who drove");
    private static final AddedColumn DISTANCE = new AddedColumn("distance_km", Types.DoubleType.get(), "How far");

    @Test
    void latestSchemaNumbersAddedColumnsAfterTheHighestIdAsOptional() {
        Schema latest = definition(INITIAL, List.of(DRIVER, DISTANCE)).latestSchema();

        assertThat(latest.sameSchema(new Schema(
                        required(1, "trip_id", Types.StringType.get()),
                        optional(2, "started_at", Types.TimestampType.withZone()),
                        optional(3, "driver_id", Types.StringType.get(), "Who drove"),
                        optional(4, "distance_km", Types.DoubleType.get(), "How far"))))
                .as(latest.toString())
                .isTrue();
    }

    @Test
    void withoutAddedColumnsTheLatestSchemaIsTheInitialOne() {
        assertThat(definition(INITIAL, List.of()).latestSchema().sameSchema(INITIAL))
                .isTrue();
    }

    @Test
    void latestSchemaKeepsTheIdentifierFieldsOfTheInitialSchema() {
        Schema keyed = new Schema(
                List.of(
                        required(1, "trip_id", Types.StringType.get()),
                        required(2, "started_at", Types.TimestampType.withZone())),
                Set.of(1, 2));

        Schema latest = definition(keyed, List.of(DRIVER)).latestSchema();

        assertThat(latest.identifierFieldNames()).containsExactlyInAnyOrder("trip_id", "started_at");
        assertThat(definition(keyed, List.of()).latestSchema().sameSchema(keyed))
                .isTrue();
    }

    @Test
    void copiesItsCollections() {
        Map<String, String> properties = new HashMap<>(Map.of("format-version", "2"));
        List<AddedColumn> columns = new ArrayList<>(List.of(DRIVER));
        TableDefinition definition = new TableDefinition(
                IDENTIFIER, INITIAL, PartitionSpec.unpartitioned(), SortOrder.unsorted(), properties, columns);

        properties.clear();
        columns.add(DISTANCE);

        assertThat(definition.properties()).containsOnlyKeys("format-version");
        assertThat(definition.addedColumns()).containsExactly(DRIVER);
    }

    @Test
    void initialSchemaMustBeNumberedAsIcebergNumbersANewTable() {
        Schema gap =
                new Schema(required(1, "trip_id", Types.StringType.get()), optional(5, "note", Types.StringType.get()));

        assertThatThrownBy(() -> definition(gap, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The initial schema of fleet.trips must number its fields 1..n in column order, as Iceberg"
                        + " does for a new table");
    }

    @Test
    void addedColumnNeedsANewName() {
        AddedColumn clash = new AddedColumn("started_at", Types.StringType.get(), "Again");

        assertThatThrownBy(() -> definition(INITIAL, List.of(clash)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Column started_at is defined more than once for fleet.trips");
        assertThatThrownBy(() -> definition(INITIAL, List.of(DRIVER, DRIVER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Column driver_id is defined more than once");
    }

    @Test
    void addedColumnMustBePrimitive() {
        Types.ListType tags = Types.ListType.ofOptional(10, Types.StringType.get());

        assertThatThrownBy(() -> new AddedColumn("tags", tags, "Labels"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Added column tags has the nested type list<string>: add primitive columns only");
        assertThatThrownBy(() -> new AddedColumn(" ", Types.StringType.get(), "Blank"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void partitioningAndSortOrderMustBeBuiltForTheInitialSchema() {
        Schema other = new Schema(required(1, "vehicle_id", Types.StringType.get()));
        PartitionSpec foreignSpec =
                PartitionSpec.builderFor(other).identity("vehicle_id").build();
        SortOrder foreignOrder = SortOrder.builderFor(other).asc("vehicle_id").build();

        assertThatThrownBy(() -> new TableDefinition(
                        IDENTIFIER, INITIAL, foreignSpec, SortOrder.unsorted(), Map.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The partition spec of fleet.trips must be built for its initial schema");
        assertThatThrownBy(() -> new TableDefinition(
                        IDENTIFIER, INITIAL, PartitionSpec.unpartitioned(), foreignOrder, Map.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The sort order of fleet.trips must be built for its initial schema");
    }

    private static TableDefinition definition(Schema initial, List<AddedColumn> addedColumns) {
        return new TableDefinition(
                IDENTIFIER, initial, PartitionSpec.unpartitioned(), SortOrder.unsorted(), Map.of(), addedColumns);
    }
}
