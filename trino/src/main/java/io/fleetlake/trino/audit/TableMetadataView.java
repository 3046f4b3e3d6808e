package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The parts of an Iceberg table's metadata the tag commands need, read from the {@code metadata} object of a REST
 * catalog {@code LoadTableResult}.
 *
 * @param tableUuid the table's UUID, asserted on commit so that a re-created table is never tagged by mistake
 * @param snapshots the snapshots the metadata still lists, by id
 * @param refs branches and tags by name
 */
record TableMetadataView(String tableUuid, Map<Long, Snapshot> snapshots, Map<String, Ref> refs) {
    static final String MAIN_BRANCH = "main";
    static final String TAG = "tag";

    TableMetadataView {
        requireNonNull(tableUuid, "tableUuid is null");
        snapshots = Map.copyOf(requireNonNull(snapshots, "snapshots is null"));
        refs = Map.copyOf(requireNonNull(refs, "refs is null"));
    }

    /** @param parentId empty for a table's first snapshot */
    record Snapshot(long snapshotId, OptionalLong parentId, Instant committedAt) {
        Snapshot {
            requireNonNull(parentId, "parentId is null");
            requireNonNull(committedAt, "committedAt is null");
        }
    }

    /** @param type {@code branch} or {@code tag} */
    record Ref(String name, String type, long snapshotId, Optional<Duration> maxRefAge) {
        Ref {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(maxRefAge, "maxRefAge is null");
        }

        boolean isTag() {
            return TAG.equals(type);
        }
    }

    /**
     * Reads table metadata JSON (the Iceberg table spec's field names).
     *
     * @throws IllegalArgumentException when a required field is missing
     */
    static TableMetadataView parse(JsonNode metadata) {
        requireNonNull(metadata, "metadata is null");
        String uuid = requiredText(metadata, "table-uuid");
        Map<Long, Snapshot> snapshots = new LinkedHashMap<>();
        for (JsonNode snapshot : metadata.path("snapshots")) {
            long snapshotId = requiredLong(snapshot, "snapshot-id");
            JsonNode parent = snapshot.path("parent-snapshot-id");
            snapshots.put(
                    snapshotId,
                    new Snapshot(
                            snapshotId,
                            parent.isIntegralNumber() ? OptionalLong.of(parent.asLong()) : OptionalLong.empty(),
                            Instant.ofEpochMilli(requiredLong(snapshot, "timestamp-ms"))));
        }
        Map<String, Ref> refs = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = metadata.path("refs").fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode ref = field.getValue();
            JsonNode maxRefAge = ref.path("max-ref-age-ms");
            refs.put(
                    field.getKey(),
                    new Ref(
                            field.getKey(),
                            requiredText(ref, "type"),
                            requiredLong(ref, "snapshot-id"),
                            maxRefAge.isIntegralNumber()
                                    ? Optional.of(Duration.ofMillis(maxRefAge.asLong()))
                                    : Optional.empty()));
        }
        // Format version 1 tables may have no refs: their current snapshot is the main branch.
        JsonNode current = metadata.path("current-snapshot-id");
        if (!refs.containsKey(MAIN_BRANCH) && current.isIntegralNumber() && current.asLong() != -1) {
            refs.put(MAIN_BRANCH, new Ref(MAIN_BRANCH, "branch", current.asLong(), Optional.empty()));
        }
        return new TableMetadataView(uuid, snapshots, refs);
    }

    /**
     * The main branch's snapshots, newest first, as far back as the metadata still has them (expired snapshots end
     * the walk).
     */
    List<Snapshot> mainHistory() {
        List<Snapshot> history = new ArrayList<>();
        Ref main = refs.get(MAIN_BRANCH);
        if (main == null) {
            return history;
        }
        Snapshot snapshot = snapshots.get(main.snapshotId());
        // The size bound stops a walk through corrupt metadata whose parents form a cycle.
        while (snapshot != null && history.size() <= snapshots.size()) {
            history.add(snapshot);
            snapshot = snapshot.parentId().isPresent()
                    ? snapshots.get(snapshot.parentId().getAsLong())
                    : null;
        }
        return history;
    }

    /** The tags, sorted by name. */
    List<TagInfo> tags() {
        return refs.values().stream()
                .filter(Ref::isTag)
                .sorted(Comparator.comparing(Ref::name))
                .map(this::tagInfo)
                .toList();
    }

    TagInfo tagInfo(Ref ref) {
        return new TagInfo(
                ref.name(),
                ref.snapshotId(),
                Optional.ofNullable(snapshots.get(ref.snapshotId())).map(Snapshot::committedAt),
                ref.maxRefAge());
    }

    private static String requiredText(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("Table metadata has no text field " + field);
        }
        return value.asText();
    }

    private static long requiredLong(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isIntegralNumber()) {
            throw new IllegalArgumentException("Table metadata has no integer field " + field);
        }
        return value.asLong();
    }
}
