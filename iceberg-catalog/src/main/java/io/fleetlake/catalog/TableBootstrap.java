package io.fleetlake.catalog;

import io.fleetlake.catalog.TableDefinition.AddedColumn;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings one namespace or table up to its definition. Every step checks what the catalog holds first and treats a race
 * lost to another process as a reason to look again, never as a failure: two catalog servers starting at once both
 * start, and the table gets each change once.
 */
final class TableBootstrap {
    /**
     * Attempts to add one column. A conflict means another commit (another starting server, or a writer's append)
     * landed first; each is followed by a reload, so only a table under a constant stream of commits exhausts this.
     */
    static final int COLUMN_COMMIT_ATTEMPTS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(TableBootstrap.class);

    private TableBootstrap() {}

    static void ensureNamespace(SupportsNamespaces catalog, Namespace namespace) {
        if (catalog.namespaceExists(namespace)) {
            return;
        }
        try {
            catalog.createNamespace(namespace);
            LOG.info("Created namespace {}", namespace);
        } catch (AlreadyExistsException | UncheckedSQLException e) {
            // JdbcCatalog reports a namespace created by another process in the meantime as a failed insert, not as
            // AlreadyExistsException; either way it is only a lost race if the namespace now exists.
            if (!catalog.namespaceExists(namespace)) {
                throw e;
            }
            LOG.info("Namespace {} was created concurrently: {}", namespace, e.getMessage());
        }
    }

    static void ensureTable(Catalog catalog, TableDefinition definition) {
        Table table = loadOrCreate(catalog, definition);
        for (AddedColumn column : definition.addedColumns()) {
            addIfMissing(table, definition.identifier(), column);
        }
        setMissingProperties(table, definition);
    }

    /**
     * Gives a table created by an earlier release the properties defined since (the write settings of issue 24, for
     * example). Only properties the table lacks: a value an operator set with {@code ALTER TABLE ... SET PROPERTIES}
     * stays. Iceberg retries the commit on conflicts and re-applies the change to the newer metadata.
     */
    private static void setMissingProperties(Table table, TableDefinition definition) {
        Map<String, String> missing = new TreeMap<>(definition.properties());
        missing.keySet().removeAll(table.properties().keySet());
        // The format version is not a property a table can be given after its creation.
        missing.remove(TableProperties.FORMAT_VERSION);
        if (missing.isEmpty()) {
            return;
        }
        UpdateProperties update = table.updateProperties();
        missing.forEach(update::set);
        update.commit();
        LOG.info("Set the properties {} of {}, which it lacked", missing, definition.identifier());
    }

    private static Table loadOrCreate(Catalog catalog, TableDefinition definition) {
        TableIdentifier identifier = definition.identifier();
        try {
            return catalog.loadTable(identifier);
        } catch (NoSuchTableException absent) {
            LOG.debug("Table {} does not exist yet: {}", identifier, absent.getMessage());
        }
        try {
            // The initial schema, not the latest: added columns follow as their own commits, so a new table gets
            // the same schema history as one created before the columns were defined.
            Table table = catalog.buildTable(identifier, definition.initialSchema())
                    .withPartitionSpec(definition.spec())
                    .withSortOrder(definition.sortOrder())
                    .withProperties(definition.properties())
                    .create();
            LOG.info("Created table {} at {}", identifier, table.location());
            return table;
        } catch (AlreadyExistsException e) {
            LOG.info("Table {} was created concurrently: {}", identifier, e.getMessage());
            return catalog.loadTable(identifier);
        }
    }

    /**
     * One column per commit, so that each added column gets its own schema id whatever the table's starting point.
     * Iceberg's schema update does not retry: a conflict is answered here by reloading the table and checking again,
     * because the conflicting commit may be the same column added by another process.
     */
    private static void addIfMissing(Table table, TableIdentifier identifier, AddedColumn column) {
        for (int attempt = 1; ; attempt++) {
            Types.NestedField existing = table.schema().findField(column.name());
            if (existing != null) {
                requireSameType(identifier, existing, column);
                return;
            }
            try {
                table.updateSchema()
                        .addColumn(column.name(), column.type(), column.doc())
                        .commit();
                LOG.info("Evolved {}: added column {}", identifier, column.name());
                return;
            } catch (CommitFailedException e) {
                if (attempt == COLUMN_COMMIT_ATTEMPTS) {
                    throw new IllegalStateException(
                            "Cannot add column " + column.name() + " to " + identifier + ": " + attempt
                                    + " attempts conflicted with other commits. Start the catalog server again when"
                                    + " fewer writers commit to the table",
                            e);
                }
                LOG.info(
                        "Adding column {} to {} conflicted with another commit (attempt {} of {}), reloading: {}",
                        column.name(),
                        identifier,
                        attempt,
                        COLUMN_COMMIT_ATTEMPTS,
                        e.getMessage());
                table.refresh();
            }
        }
    }

    private static void requireSameType(TableIdentifier identifier, Types.NestedField existing, AddedColumn column) {
        if (!existing.type().equals(column.type())) {
            throw new IllegalStateException("Table " + identifier + " has a column " + column.name() + " of type "
                    + existing.type() + " where its definition adds one of type " + column.type()
                    + ": rename or drop that column (ALTER TABLE) so the catalog can add the defined one");
        }
    }
}
