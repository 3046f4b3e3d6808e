package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link AuditQueries#tag}, {@link AuditQueries#retag} and {@link AuditQueries#tags} over HTTP to a catalog stand-in. */
class AuditQueriesTagTest {
    private static final LocalDate DAY = LocalDate.of(2026, 11, 28);
    private static final Clock NEXT_MORNING = Clock.fixed(Instant.parse("2026-11-29T06:00:00Z"), ZoneOffset.UTC);
    private static final Duration KEEP = Duration.ofDays(400);

    private static TableMetadataJson history() {
        return new TableMetadataJson()
                .commit(20, "2026-11-28T09:00:00Z")
                .commit(30, "2026-11-28T23:00:00Z")
                .commit(40, "2026-11-29T01:00:00Z");
    }

    @Test
    void createsTheDailyTagOnceAndThenLeavesItAlone() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            AuditQueries queries = queries(catalog.uri());

            TagResult created = queries.tag(AuditTable.POSITIONS, DAY, KEEP);
            TagResult again = queries.tag(AuditTable.POSITIONS, DAY, KEEP);

            assertThat(created.action()).isEqualTo(TagResult.Action.CREATED);
            assertThat(created.tag())
                    .isEqualTo(new TagInfo(
                            "audit-2026-11-28",
                            30,
                            Optional.of(Instant.parse("2026-11-28T23:00:00Z")),
                            Optional.of(KEEP)));
            assertThat(created.tag().expiresAt()).contains(Instant.parse("2028-01-02T23:00:00Z"));
            assertThat(again.action()).isEqualTo(TagResult.Action.UNCHANGED);
            assertThat(again.tag()).isEqualTo(created.tag());
            assertThat(catalog.requests())
                    .containsExactly(
                            "GET /v1/config",
                            "GET /v1/namespaces/fleet/tables/positions",
                            "GET /v1/config",
                            "POST /v1/namespaces/fleet/tables/positions",
                            "GET /v1/config",
                            "GET /v1/namespaces/fleet/tables/positions");
            assertThat(catalog.metadata()
                            .path("refs")
                            .path("audit-2026-11-28")
                            .path("max-ref-age-ms")
                            .asLong())
                    .isEqualTo(KEEP.toMillis());
        }
    }

    @Test
    void refusesToMoveATagUnlessAskedTo() throws IOException {
        try (FakeRestCatalog catalog = new FakeRestCatalog(
                "positions", "", history().tag("audit-2026-11-28", 20, 1000).json())) {
            AuditQueries queries = queries(catalog.uri());

            assertThatThrownBy(() -> queries.tag(AuditTable.POSITIONS, DAY, KEEP))
                    .isInstanceOf(AuditException.class)
                    .hasMessageContaining("pass --force to move the tag");
            assertThat(catalog.requests()).noneMatch(request -> request.startsWith("POST"));

            TagResult moved = queries.retag(AuditTable.POSITIONS, DAY, KEEP);

            assertThat(moved.action()).isEqualTo(TagResult.Action.MOVED);
            assertThat(moved.previousSnapshotId()).isEqualTo(OptionalLong.of(20));
            assertThat(moved.tag().snapshotId()).isEqualTo(30);
        }
    }

    @Test
    void aTagCreatedConcurrentlyOnTheSameSnapshotEndsUnchanged() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            catalog.beforeNextCommit(metadata -> ((ObjectNode) metadata.path("refs"))
                    .putObject("audit-2026-11-28")
                    .put("snapshot-id", 30)
                    .put("type", "tag")
                    .put("max-ref-age-ms", KEEP.toMillis()));

            TagResult result = queries(catalog.uri()).tag(AuditTable.POSITIONS, DAY, KEEP);

            assertThat(result.action()).isEqualTo(TagResult.Action.UNCHANGED);
            assertThat(catalog.requests())
                    .filteredOn(request -> request.startsWith("POST"))
                    .hasSize(1);
        }
    }

    @Test
    void aTagCreatedConcurrentlyOnAnotherSnapshotIsAConflict() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            catalog.beforeNextCommit(metadata -> ((ObjectNode) metadata.path("refs"))
                    .putObject("audit-2026-11-28")
                    .put("snapshot-id", 20)
                    .put("type", "tag"));

            assertThatThrownBy(() -> queries(catalog.uri()).tag(AuditTable.POSITIONS, DAY, KEEP))
                    .isInstanceOf(AuditException.class)
                    .extracting(exception -> ((AuditException) exception).error())
                    .isEqualTo(AuditError.TAG_CONFLICT);
        }
    }

    @Test
    void followsTheCatalogsPathPrefix() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("vehicle_minutes", "warehouse", history().json())) {
            queries(catalog.uri()).tag(AuditTable.VEHICLE_MINUTES, DAY, KEEP);

            assertThat(catalog.requests()).contains("POST /v1/warehouse/namespaces/fleet/tables/vehicle_minutes");
        }
    }

    @Test
    void listsTags() throws IOException {
        try (FakeRestCatalog catalog = new FakeRestCatalog(
                "positions",
                "",
                history()
                        .tag("audit-2026-11-29", 40, 1000)
                        .tag("audit-2026-11-28", 30, 1000)
                        .json())) {
            assertThat(queries(catalog.uri()).tags(AuditTable.POSITIONS))
                    .extracting(TagInfo::name)
                    .containsExactly("audit-2026-11-28", "audit-2026-11-29");
        }
    }

    @Test
    void aMissingTableTellsHowTheCatalogCreatesIt() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            assertThatThrownBy(() -> queries(catalog.uri()).tags(AuditTable.REJECTED_POSITIONS))
                    .isInstanceOf(AuditException.class)
                    .hasMessageStartingWith(
                            "fleet.rejected_positions does not exist in the Iceberg REST catalog at " + catalog.uri())
                    .extracting(exception -> ((AuditException) exception).exitCode())
                    .isEqualTo(1);
        }
    }

    @Test
    void aCatalogErrorCarriesItsMessage() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            catalog.failNextRequestsWithStatus(500);

            assertThatThrownBy(() -> queries(catalog.uri()).tags(AuditTable.POSITIONS))
                    .isInstanceOf(AuditException.class)
                    .hasMessage("The Iceberg REST catalog at " + catalog.uri() + " answered 500 to GET /v1/config:"
                            + " ServiceFailureException: database is locked")
                    .extracting(exception -> ((AuditException) exception).error())
                    .isEqualTo(AuditError.CATALOG_FAILED);
        }
    }

    @Test
    void anUnreachableCatalogNamesItsUri() throws IOException {
        URI closed = closedPort();

        assertThatThrownBy(() -> queries(closed).tags(AuditTable.POSITIONS))
                .isInstanceOf(AuditException.class)
                .hasMessageStartingWith("Cannot reach the Iceberg REST catalog at " + closed)
                .hasMessageEndingWith("the stack must be running (fleet up), or pass --catalog-uri")
                .extracting(exception -> ((AuditException) exception).error())
                .isEqualTo(AuditError.CATALOG_UNREACHABLE);
    }

    private static AuditQueries queries(URI catalogUri) {
        return new AuditQueries(AuditConfig.defaults().withCatalogUri(catalogUri), NEXT_MORNING);
    }

    /** A port that was free a moment ago: nothing listens there. */
    static URI closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }
}
