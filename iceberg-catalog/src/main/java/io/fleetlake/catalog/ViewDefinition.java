package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A fleet view: an Iceberg view holding one SQL representation in Trino's dialect. Trino reads the query with the
 * view's default catalog and namespace and checks that the query's columns can be read as the view's schema, so the
 * schema lists exactly the query's columns, in order.
 *
 * @param identifier where the view lives in the catalog
 * @param schema the query's columns; Trino refuses a view whose query no longer produces them ("stale view")
 * @param trinoSql the query, naming tables relative to the default catalog and namespace
 * @param trinoCatalog the Trino catalog the query's tables are in (the view's default catalog)
 * @param comment what the view shows
 */
public record ViewDefinition(
        TableIdentifier identifier, Schema schema, String trinoSql, String trinoCatalog, String comment) {
    /** The dialect name Trino looks for in an Iceberg view. */
    public static final String TRINO_DIALECT = "trino";

    public ViewDefinition {
        requireNonNull(identifier, "identifier is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(trinoSql, "trinoSql is null");
        requireNonNull(trinoCatalog, "trinoCatalog is null");
        requireNonNull(comment, "comment is null");
    }
}
