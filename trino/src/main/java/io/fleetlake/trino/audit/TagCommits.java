package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.Tables;
import java.time.Duration;

/**
 * The Iceberg REST {@code CommitTableRequest} that sets a tag ({@code POST /v1/namespaces/fleet/tables/<table>}), per
 * {@code open-api/rest-catalog-open-api.yaml}:
 *
 * <ul>
 *   <li>{@code assert-table-uuid}: the table is the one the plan was made from, not a re-created table of the same name;
 *   <li>{@code assert-ref-snapshot-id}: the tag is still where the plan saw it, {@code null} meaning "does not exist",
 *       so two concurrent runs cannot both create or move it;
 *   <li>one {@code set-snapshot-ref} update of type {@code tag} with {@code max-ref-age-ms}, after which snapshot expiry
 *       drops the tag.
 * </ul>
 */
final class TagCommits {
    private TagCommits() {}

    static ObjectNode setTag(
            ObjectMapper mapper, String tableUuid, AuditTable table, TagPlanner.TagPlan plan, Duration keep) {
        requireNonNull(mapper, "mapper is null");
        requireNonNull(tableUuid, "tableUuid is null");
        requireNonNull(table, "table is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(keep, "keep is null");
        ObjectNode request = mapper.createObjectNode();
        ObjectNode identifier = request.putObject("identifier");
        identifier.putArray("namespace").add(Tables.NAMESPACE);
        identifier.put("name", table.tableName());

        ArrayNode requirements = request.putArray("requirements");
        requirements.addObject().put("type", "assert-table-uuid").put("uuid", tableUuid);
        ObjectNode refRequirement =
                requirements.addObject().put("type", "assert-ref-snapshot-id").put("ref", plan.tagName());
        if (plan.previousSnapshotId().isPresent()) {
            refRequirement.put("snapshot-id", plan.previousSnapshotId().getAsLong());
        } else {
            refRequirement.putNull("snapshot-id");
        }

        request.putArray("updates")
                .addObject()
                .put("action", "set-snapshot-ref")
                .put("ref-name", plan.tagName())
                .put("type", TableMetadataView.TAG)
                .put("snapshot-id", plan.target().snapshotId())
                .put("max-ref-age-ms", keep.toMillis());
        return request;
    }
}
