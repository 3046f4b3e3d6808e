package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TableMetadataViewTest {
    @Test
    void readsTheRecordedCatalogAnswer() {
        TableMetadataView view = TableMetadataView.parse(
                TableMetadataJson.recordedLoadTableResult().path("metadata"));

        assertThat(view.tableUuid()).isEqualTo("115c1c41-d8c4-42e6-9f4c-0e9ef79c198c");
        // Snapshot 6492320921491788140 expired; the tagged first snapshot was kept.
        assertThat(view.snapshots()).containsOnlyKeys(491287539171851427L, 7011548268856542283L, 4445927866234006680L);
        assertThat(view.snapshots().get(491287539171851427L).parentId()).isEmpty();
        assertThat(view.snapshots().get(7011548268856542283L).parentId())
                .isEqualTo(OptionalLong.of(6492320921491788140L));
        assertThat(view.refs().get("main").snapshotId()).isEqualTo(4445927866234006680L);
        assertThat(view.tags())
                .containsExactly(
                        new TagInfo(
                                "audit-2026-11-28",
                                491287539171851427L,
                                Optional.of(Instant.parse("2026-11-29T20:30:29.117Z")),
                                Optional.of(Duration.ofDays(400))),
                        new TagInfo(
                                "audit-2026-11-29",
                                7011548268856542283L,
                                Optional.of(Instant.parse("2026-11-29T20:42:49.914Z")),
                                Optional.of(Duration.ofDays(400))));
    }

    @Test
    void mainHistoryStopsAtAnExpiredParent() {
        TableMetadataView view = TableMetadataView.parse(
                TableMetadataJson.recordedLoadTableResult().path("metadata"));

        assertThat(view.mainHistory())
                .extracting(TableMetadataView.Snapshot::snapshotId)
                .containsExactly(4445927866234006680L, 7011548268856542283L);
    }

    @Test
    void aTableWithoutSnapshotsHasNoHistoryAndNoTags() {
        TableMetadataView view = new TableMetadataJson().view();

        assertThat(view.mainHistory()).isEmpty();
        assertThat(view.tags()).isEmpty();
        assertThat(view.refs()).isEmpty();
    }

    @Test
    void formatVersionOneMetadataWithoutRefsUsesTheCurrentSnapshotAsMain() {
        TableMetadataJson json =
                new TableMetadataJson().commit(1, "2026-11-28T10:00:00Z").commit(2, "2026-11-28T11:00:00Z");
        json.json().remove("refs");

        assertThat(json.view().mainHistory())
                .extracting(TableMetadataView.Snapshot::snapshotId)
                .containsExactly(2L, 1L);
    }

    @Test
    void aTagWithoutMaximumAgeNeverExpires() {
        TableMetadataView view = new TableMetadataJson()
                .commit(1, "2026-11-28T10:00:00Z")
                .ref("audit-2026-11-28", "tag", 1)
                .view();

        TagInfo tag = view.tags().get(0);
        assertThat(tag.maxRefAge()).isEmpty();
        assertThat(tag.expiresAt()).isEmpty();
    }

    @Test
    void refusesMetadataWithoutUuid() {
        assertThatThrownBy(() -> TableMetadataView.parse(new ObjectMapper().createObjectNode()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table-uuid");
    }
}
