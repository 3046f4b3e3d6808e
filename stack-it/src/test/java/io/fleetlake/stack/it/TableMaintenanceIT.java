package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.stack.maintenance.TableMaintenanceJob;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.trino.audit.AsOf;
import io.fleetlake.trino.audit.AuditConfig;
import io.fleetlake.trino.audit.AuditError;
import io.fleetlake.trino.audit.AuditException;
import io.fleetlake.trino.audit.AuditQueries;
import io.fleetlake.trino.audit.AuditTable;
import io.fleetlake.trino.audit.TagResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code fleet maintain} on the running stack while positions stream through the real pipeline: compaction and
 * snapshot expiry commit between the pipeline's checkpoint commits; afterwards every position is there exactly once,
 * the pipeline never failed over, time travel to an {@code audit-*} tag still returns the tagged rows, and a query of
 * an expired snapshot is refused with the audits' clear error.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class TableMaintenanceIT {
    private static final String VEHICLE = "MNT-01";
    private static final Duration TIMEOUT = Duration.ofMinutes(4);
    private static final int TAGGED = 20;
    private static final int STREAMED = 60;

    @Test
    void maintenanceWhileThePipelineStreamsChangesNoResult(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        AuditConfig config = AuditConfig.from(ConfigSource.of(Map.of(
                AuditConfig.TRINO_JDBC_URL, running.settings().trinoJdbcUrl(),
                AuditConfig.DATA_DIRECTORY, running.settings().dataDirectory().toString(),
                AuditConfig.CATALOG_URI, running.settings().catalogUri(),
                AuditConfig.CATALOG_CREDENTIAL,
                        StackCatalogIdentity.of(running.settings())
                                .credential(CatalogRole.WRITER)
                                .value())));
        AuditQueries audit = new AuditQueries(config);
        Instant start = Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Instant from = start.minus(1, ChronoUnit.HOURS);
        Instant to = start.plus(2, ChronoUnit.HOURS);

        publish(running, fixes(start, 0, TAGGED / 2));
        awaitRows(trino, TAGGED / 2);
        // Holds the first half only: the tag below points to a later snapshot, so this one is not kept.
        long untagged = latestSnapshot(trino);
        publish(running, fixes(start, TAGGED / 2, TAGGED / 2));
        awaitRows(trino, TAGGED);
        // A day of its own: the audit tests tag today's snapshot. With the clock two days on, that day is over and
        // its tag points to the newest snapshot, which holds the first positions.
        LocalDate day = LocalDate.now(ZoneOffset.UTC).plusDays(1);
        AuditQueries later = new AuditQueries(
                config, Clock.fixed(day.plusDays(1).atTime(6, 0).toInstant(ZoneOffset.UTC), ZoneOffset.UTC));
        TagResult tagged = later.tag(AuditTable.POSITIONS, day, Duration.ofDays(400));
        String tag = tagged.tag().name();
        assertThat(tagged.tag().snapshotId()).isNotEqualTo(untagged);
        assertThat(audit.track(VEHICLE, from, to, AsOf.tag(tag))).hasSize(TAGGED);
        int failoversBefore = failovers(running);

        Path output = Files.createTempFile(running.settings().dataDirectory(), "maintain-", ".log");
        CompletableFuture<Void> streaming = CompletableFuture.runAsync(() -> {
            try (TestPublisher publisher = TestPublisher.connect(running.settings(), "maintenance-test")) {
                for (Position position : fixes(start, TAGGED, STREAMED)) {
                    publisher.publish(position, PayloadFormat.AVRO);
                    TimeUnit.MILLISECONDS.sleep(100);
                }
                publisher.awaitAcknowledgements();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int exitCode = new TableMaintenanceJob(running.settings(), FleetHome.locate())
                .run(
                        List.of(
                                "--table",
                                Tables.qualified(Tables.POSITIONS),
                                "--table",
                                Tables.qualified(Tables.VEHICLE_MINUTES),
                                // Everything older than a few seconds expires, except what the tag keeps.
                                "--set",
                                "maintenance.snapshot-retention=5s",
                                "--set",
                                "maintenance.min-input-files=2"),
                        ProcessBuilder.Redirect.to(output.toFile()));
        streaming.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        String log = Files.readString(output);
        assertThat(exitCode).as(log).isZero();
        assertThat(log)
                .contains("Summary")
                .contains("fleet.positions succeeded")
                .contains("fleet.vehicle_minutes succeeded")
                .containsPattern("files rewritten [1-9][0-9,]* into")
                .containsPattern("expired [1-9]");

        awaitRows(trino, TAGGED + STREAMED);
        assertThat(trino.query(
                        "SELECT count(DISTINCT event_time) FROM " + Tables.qualified(Tables.POSITIONS)
                                + " WHERE vehicle_id = ?",
                        VEHICLE))
                .containsExactly(List.of(Integer.toString(TAGGED + STREAMED)));
        assertThat(failovers(running)).as("the pipeline never failed over").isEqualTo(failoversBefore);
        assertThat(running.stack().component(FleetStack.PIPELINE).isHealthy()).isTrue();
        assertThat(audit.track(VEHICLE, from, to, AsOf.tag(tag))).hasSize(TAGGED);
        assertThat(audit.track(VEHICLE, from, to, AsOf.current())).hasSize(TAGGED + STREAMED);
        assertThatThrownBy(() -> audit.track(VEHICLE, from, to, AsOf.snapshot(untagged)))
                .isInstanceOfSatisfying(
                        AuditException.class, e -> assertThat(e.error()).isEqualTo(AuditError.SNAPSHOT_NOT_FOUND));
        assertThat(metricsEndpoint(running)).isEqualTo(200);
    }

    private static void publish(RunningStack running, List<Position> positions) throws Exception {
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "maintenance-test")) {
            for (Position position : positions) {
                publisher.publish(position, PayloadFormat.AVRO);
            }
            publisher.awaitAcknowledgements();
        }
    }

    private static List<Position> fixes(Instant start, int first, int count) {
        return IntStream.range(first, first + count)
                .mapToObj(fix ->
                        Position.of(VEHICLE, start.plusSeconds(5L * fix), 39.4699 + fix * 0.0003, -0.3763, 40.0, 0.0))
                .toList();
    }

    private static void awaitRows(TrinoInspector trino, long expected) {
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> Long.parseLong(trino.query(
                                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS)
                                                + " WHERE vehicle_id = ?",
                                        VEHICLE)
                                .get(0)
                                .get(0))
                        == expected);
    }

    private static long latestSnapshot(TrinoInspector trino) throws Exception {
        List<TrinoInspector.Snapshot> snapshots = trino.snapshots(Tables.POSITIONS);
        return snapshots.get(snapshots.size() - 1).snapshotId();
    }

    /** Failures in the pipeline job's exception history (each one a failover and restore). */
    private static int failovers(RunningStack running) throws Exception {
        FlinkRestClient flink = StackFlinkRest.client(running.settings());
        String jobId = flink.jobs().stream()
                .filter(FlinkRestClient.JobSummary::running)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No running job at " + flink.restUri()))
                .id();
        return flink.get("/jobs/" + jobId + "/exceptions")
                .path("exceptionHistory")
                .path("entries")
                .size();
    }

    private static int metricsEndpoint(RunningStack running) throws Exception {
        String endpoint = running.stack().component(FleetStack.MAINTENANCE).endpoint();
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(endpoint)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
