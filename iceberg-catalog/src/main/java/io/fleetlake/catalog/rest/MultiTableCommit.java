package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits the table changes of one {@code POST /v1/transactions/commit} request.
 *
 * <p>Every change is validated against its table's current metadata and applied in memory before any table is
 * written, so a failed requirement changes nothing. The catalog database then records one table at a time (JdbcCatalog
 * has no multi-table transaction); the caller holds the server's commit lock, so no other commit through this server
 * can slip between the validation and the writes. What can still leave a partial commit is a failure while writing
 * (storage or database error) or a table dropped or renamed concurrently.
 */
final class MultiTableCommit {
    private MultiTableCommit() {}

    static void commit(Catalog catalog, CommitTransactionRequest request) {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(request, "request is null");
        rejectRepeatedTables(request.tableChanges());
        List<StagedCommit> staged = request.tableChanges().stream()
                .map(change -> stage(catalog, change))
                .toList();
        staged.forEach(StagedCommit::commit);
    }

    private static void rejectRepeatedTables(List<UpdateTableRequest> changes) {
        Set<TableIdentifier> seen = new HashSet<>();
        for (UpdateTableRequest change : changes) {
            if (!seen.add(change.identifier())) {
                throw new BadRequestException(
                        "Table %s appears more than once in the transaction: combine its changes", change.identifier());
            }
        }
    }

    private static StagedCommit stage(Catalog catalog, UpdateTableRequest change) {
        TableOperations operations = operations(catalog.loadTable(change.identifier()));
        TableMetadata base = operations.current();
        change.requirements().forEach(requirement -> requirement.validate(base));
        TableMetadata.Builder builder = TableMetadata.buildFrom(base);
        try {
            change.updates().forEach(update -> update.applyTo(builder));
        } catch (RetryableValidationException e) {
            // Stale values in the request (such as a sequence number): the client can retry on fresh metadata.
            throw new CommitFailedException(e, "Validation failed, retry with refreshed metadata: %s", e.getMessage());
        }
        return new StagedCommit(operations, base, builder.build());
    }

    private static TableOperations operations(Table table) {
        if (table instanceof BaseTable baseTable) {
            return baseTable.operations();
        }
        throw new IllegalStateException("Catalog returned " + table.getClass().getName() + " instead of a BaseTable");
    }

    private record StagedCommit(TableOperations operations, TableMetadata base, TableMetadata updated) {
        StagedCommit {
            requireNonNull(operations, "operations is null");
            requireNonNull(base, "base is null");
            requireNonNull(updated, "updated is null");
        }

        void commit() {
            if (!updated.changes().isEmpty()) {
                operations.commit(base, updated);
            }
        }
    }
}
