package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogTokens;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.model.restore.TableSnapshot;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Questions about the Iceberg tables, asked through the REST catalog's load-table endpoint: the table metadata lists
 * every snapshot with its time, operation and summary, without reading any data file.
 */
public final class CatalogInspector {
    /** Iceberg's operation of a snapshot that only rewrites files (compaction); it adds no data. */
    private static final String REPLACE = "replace";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String catalogUri;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final Optional<CatalogTokens> tokens;

    /**
     * @param catalogUri for example {@code http://127.0.0.1:18181}
     * @param credential a reader's client credentials; empty for a catalog without authentication
     */
    public CatalogInspector(String catalogUri, Optional<CatalogCredential> credential) {
        this.catalogUri = requireNonNull(catalogUri, "catalogUri is null");
        this.tokens = requireNonNull(credential, "credential is null")
                .map(present -> new CatalogTokens(catalogUri, present, http, TIMEOUT));
    }

    /**
     * The newest commit to a table of the {@value Tables#NAMESPACE} namespace that added or removed data (appends,
     * overwrites, deletes; not compaction's rewrites), and how many snapshots the table keeps.
     *
     * @throws InspectionException when the catalog cannot be asked or does not know the table
     */
    public TableCommits commits(String table) {
        return parse(Tables.qualified(table), loadTable(table));
    }

    /**
     * The commits of the pipeline's {@code FlinkSink} in the table's current history ({@link
     * TableSnapshot#flinkCommits}), for the restore guard.
     *
     * @throws InspectionException when the catalog cannot be asked or does not know the table
     */
    public List<FlinkCommit> flinkCommits(String table) {
        return flinkCommits(table, loadTable(table));
    }

    /** The Flink commits of a load-table response, newest first. */
    static List<FlinkCommit> flinkCommits(String table, JsonNode loadTableResponse) {
        JsonNode metadata = loadTableResponse.path("metadata");
        List<TableSnapshot> snapshots = new ArrayList<>();
        for (JsonNode snapshot : metadata.path("snapshots")) {
            Map<String, String> summary = new HashMap<>();
            snapshot.path("summary")
                    .fields()
                    .forEachRemaining(field ->
                            summary.put(field.getKey(), field.getValue().asText()));
            snapshots.add(new TableSnapshot(
                    snapshot.path("snapshot-id").asLong(),
                    snapshotId(snapshot.path("parent-snapshot-id")),
                    snapshot.path("timestamp-ms").asLong(),
                    summary));
        }
        return TableSnapshot.flinkCommits(table, snapshotId(metadata.path("current-snapshot-id")), snapshots);
    }

    /** Iceberg writes {@code -1}, or leaves the field out, for no snapshot. */
    private static Optional<Long> snapshotId(JsonNode node) {
        return node.isIntegralNumber() && node.asLong() != -1 ? Optional.of(node.asLong()) : Optional.empty();
    }

    private JsonNode loadTable(String table) {
        requireNonNull(table, "table is null");
        URI uri = URI.create(catalogUri + "/v1/namespaces/" + Tables.NAMESPACE + "/tables/" + table);
        try {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET();
            tokens.ifPresent(present -> request.header("Authorization", present.authorization()));
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 401) {
                tokens.ifPresent(CatalogTokens::invalidate);
            }
            if (response.statusCode() != 200) {
                throw new InspectionException("GET " + uri + " answered " + response.statusCode());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new InspectionException(
                    "Cannot load table " + table + " from the catalog at " + catalogUri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectionException("Interrupted while loading table " + table, e);
        }
    }

    /** The commits of a load-table response ({@code {"metadata": {"snapshots": [...]}}}). */
    static TableCommits parse(String table, JsonNode loadTableResponse) {
        long newest = Long.MIN_VALUE;
        int snapshots = 0;
        for (JsonNode snapshot : loadTableResponse.path("metadata").path("snapshots")) {
            snapshots++;
            String operation = snapshot.path("summary").path("operation").asText("");
            if (!REPLACE.equals(operation)) {
                newest = Math.max(newest, snapshot.path("timestamp-ms").asLong(Long.MIN_VALUE));
            }
        }
        return new TableCommits(
                table,
                newest == Long.MIN_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(newest)),
                snapshots);
    }

    /**
     * @param table {@code namespace.table}
     * @param lastDataCommit when the newest snapshot that changed data was committed; empty for a table without one
     * @param snapshots snapshots the table's metadata keeps
     */
    public record TableCommits(String table, Optional<Instant> lastDataCommit, int snapshots) {
        public TableCommits {
            requireNonNull(table, "table is null");
            requireNonNull(lastDataCommit, "lastDataCommit is null");
        }
    }
}
