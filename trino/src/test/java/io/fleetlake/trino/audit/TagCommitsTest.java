package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.trino.audit.TagPlanner.ExistingTag;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class TagCommitsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant NEXT_MORNING = Instant.parse("2026-11-29T06:00:00Z");

    @Test
    void creatingATagRequiresThatItDoesNotExist() throws Exception {
        TableMetadataView view =
                new TableMetadataJson().commit(30, "2026-11-28T12:00:00Z").view();
        TagPlanner.TagPlan plan = TagPlanner.plan(
                view, AuditTable.POSITIONS, LocalDate.of(2026, 11, 28), ExistingTag.REFUSE, NEXT_MORNING);

        JsonNode request =
                TagCommits.setTag(MAPPER, view.tableUuid(), AuditTable.POSITIONS, plan, Duration.ofDays(400));

        // Compared as text: Jackson's int and long nodes of the same number are not equal.
        assertThat(request.toString())
                .isEqualTo(MAPPER.readTree(
                                """
                        {
                          "identifier": {"namespace": ["fleet"], "name": "positions"},
                          "requirements": [
                            {"type": "assert-table-uuid", "uuid": "115c1c41-d8c4-42e6-9f4c-0e9ef79c198c"},
                            {"type": "assert-ref-snapshot-id", "ref": "audit-2026-11-28", "snapshot-id": null}
                          ],
                          "updates": [
                            {
                              "action": "set-snapshot-ref",
                              "ref-name": "audit-2026-11-28",
                              "type": "tag",
                              "snapshot-id": 30,
                              "max-ref-age-ms": 34560000000
                            }
                          ]
                        }
                        """)
                        .toString());
    }

    @Test
    void movingATagRequiresItToStillPointWhereItDid() {
        TableMetadataView view = new TableMetadataJson()
                .commit(20, "2026-11-28T09:00:00Z")
                .commit(30, "2026-11-28T12:00:00Z")
                .tag("audit-2026-11-28", 20, 1000)
                .view();
        TagPlanner.TagPlan plan = TagPlanner.plan(
                view, AuditTable.VEHICLE_MINUTES, LocalDate.of(2026, 11, 28), ExistingTag.MOVE, NEXT_MORNING);

        JsonNode request =
                TagCommits.setTag(MAPPER, view.tableUuid(), AuditTable.VEHICLE_MINUTES, plan, Duration.ofDays(30));

        assertThat(request.path("identifier").path("name").asText()).isEqualTo("vehicle_minutes");
        JsonNode requirement = request.path("requirements").get(1);
        assertThat(requirement.path("type").asText()).isEqualTo("assert-ref-snapshot-id");
        assertThat(requirement.path("snapshot-id").asLong()).isEqualTo(20);
        JsonNode update = request.path("updates").get(0);
        assertThat(update.path("snapshot-id").asLong()).isEqualTo(30);
        assertThat(update.path("max-ref-age-ms").asLong())
                .isEqualTo(Duration.ofDays(30).toMillis());
    }
}
