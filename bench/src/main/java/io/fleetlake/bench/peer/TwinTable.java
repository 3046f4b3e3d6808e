package io.fleetlake.bench.peer;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

/**
 * The peer's table {@code fleet.positions_kc}: the columns of {@code fleet.positions} (same names, types and ids, same
 * partitioning) but every column optional, because the sink only fills the payload's fields (the pipeline's lineage and
 * enrichment columns stay null). It gets the table properties of {@code fleet.positions} as they are in this run, so
 * the two writers write Parquet the same way (codec, level, page size, dictionary): a write setting cannot make the
 * side by side ratio by itself.
 */
public final class TwinTable {
    public static final String NAME = "positions_kc";

    private TwinTable() {}

    /** Creates the table through the REST catalog unless it exists. */
    public static void ensure(StackSettings stack) {
        requireNonNull(stack, "stack is null");
        try (RESTCatalog catalog = new RESTCatalog()) {
            catalog.initialize("bench", catalogProperties(stack));
            TableIdentifier twin = TableIdentifier.of(Tables.NAMESPACE, NAME);
            if (catalog.tableExists(twin)) {
                return;
            }
            Table positions = catalog.loadTable(TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS));
            List<Types.NestedField> optional = positions.schema().columns().stream()
                    .map(Types.NestedField::asOptional)
                    .toList();
            catalog.buildTable(twin, new Schema(optional))
                    .withPartitionSpec(positions.spec())
                    .withProperties(sameProperties(positions))
                    .create();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the REST catalog client", e);
        }
    }

    /** The properties of {@code positions}, and its format version, which Iceberg keeps apart from them. */
    static Map<String, String> sameProperties(Table positions) {
        Map<String, String> properties = new LinkedHashMap<>(positions.properties());
        properties.put(
                TableProperties.FORMAT_VERSION,
                Integer.toString(
                        ((HasTableOperations) positions).operations().current().formatVersion()));
        return properties;
    }

    /**
     * How a client reaches the stack's catalog and S3 storage: as the stack's writer, since the peer creates its table
     * and commits to it.
     */
    public static Map<String, String> catalogProperties(StackSettings stack) {
        Map<String, String> properties = new LinkedHashMap<>(Map.of(
                "uri", stack.catalogUri(),
                "warehouse", stack.warehouse(),
                "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                "s3.endpoint", stack.s3Endpoint(),
                "s3.path-style-access", "true",
                "s3.access-key-id", stack.s3AccessKey(),
                "s3.secret-access-key", stack.s3SecretKey(),
                "client.region", stack.s3Region()));
        properties.putAll(StackCatalogIdentity.of(stack).clientProperties(CatalogRole.WRITER));
        return properties;
    }
}
