package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code fleet audit} command line, without Trino: parsing, validation, exit codes and the tag commands. */
class AuditCommandTest {
    /** A history long over, so the real clock has passed the day to tag. */
    private static TableMetadataJson history() {
        return new TableMetadataJson().commit(20, "2020-03-01T09:00:00Z").commit(30, "2020-03-02T09:00:00Z");
    }

    @Test
    void helpListsEveryAudit() {
        Result result = run("--help");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("track", "where", "snapshots", "rejections", "tag", "tags");
        assertThat(result.out()).contains("--trino-url", "--catalog-uri", "--config", "--set");
    }

    @Test
    void noSubcommandIsAUsageError() {
        Result result = run();

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("Name an audit command");
    }

    @Test
    void anInvalidTimeIsAUserErrorWithOneLine() {
        Result result = run("track", "--vehicle", "bus-0042", "--from", "yesterday", "--to", "now");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).hasSize(1);
        assertThat(result.err()).startsWith("--from 'yesterday' is not a time: use 2026-11-28T14:02:00Z");
    }

    @Test
    void anEmptyRangeIsAUserError() {
        Result result =
                run("track", "--vehicle", "bus-0042", "--from", "2026-11-28T15:00:00Z", "--to", "2026-11-28T14:00:00Z");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("The range is empty");
    }

    @Test
    void timeTravelOptionsExcludeEachOther() {
        Result result = run(
                "track",
                "--vehicle",
                "bus-0042",
                "--from",
                "now-1h",
                "--to",
                "now",
                "--as-of-snapshot",
                "1",
                "--as-of-tag",
                "audit-2026-11-28");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("mutually exclusive");
    }

    @Test
    void unknownTableAndFormatAreRefusedByName() {
        assertThat(run("snapshots", "--table", "nope").err())
                .contains(
                        "Table 'nope' is not a fleet table: use one of positions, rejected_positions, vehicle_minutes");
        assertThat(run("--format", "xml", "tags").err()).contains("Format 'xml' is not table, csv or json");
        assertThat(run("rejections", "--bucket", "week").exitCode()).isEqualTo(2);
    }

    @Test
    void unreachableTrinoIsASystemErrorNamingTheUrl() throws IOException {
        URI closed = AuditQueriesTagTest.closedPort();
        String url = "jdbc:trino://127.0.0.1:" + closed.getPort() + "/iceberg";

        // A password, so that the audit gets as far as connecting.
        Result result = run(
                "-s",
                "audit.trino-password=test-password",
                "track",
                "--vehicle",
                "bus-0042",
                "--from",
                "now-1h",
                "--to",
                "now",
                "--trino-url",
                url);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err().strip())
                .startsWith("Cannot reach Trino at " + url + " (")
                .endsWith("the stack must be running (fleet up, or fleet demo --keep-running), or pass --trino-url");
    }

    @Test
    void withoutATrinoPasswordTheAuditSaysWhatToSet(@TempDir Path emptyDataDirectory) {
        Result result = run("-s", "audit.data-dir=" + emptyDataDirectory, "rejections");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("audit.trino-password", "audit.data-dir");
    }

    @Test
    void invalidConfigurationIsAUserError() {
        Result result = run("-s", "audit.trino-jdbc-url=jdbc:mysql://x/y", "rejections");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("audit.trino-jdbc-url", "is not a Trino JDBC URL");
    }

    @Test
    void tagThenTagsThroughTheCatalog() throws IOException {
        try (FakeRestCatalog catalog =
                new FakeRestCatalog("positions", "", history().json())) {
            Result tag = run(
                    "tag",
                    "--date",
                    "2020-03-01",
                    "--catalog-uri",
                    catalog.uri().toString(),
                    "--format",
                    "csv");
            Result again = run("--catalog-uri", catalog.uri().toString(), "tag", "--date", "2020-03-01");
            Result tags = run(
                    "--format", "json", "tags", "--catalog-uri", catalog.uri().toString());

            assertThat(tag.exitCode()).isZero();
            assertThat(tag.out())
                    .isEqualTo(
                            "table,tag,action,snapshot_id,committed_at,previous_snapshot_id,max_ref_age,expires_at\r\n"
                                    + "fleet.positions,audit-2020-03-01,CREATED,20,2020-03-01T09:00:00.000Z,,400d,"
                                    + "2021-04-05T09:00:00.000Z\r\n");
            assertThat(again.exitCode()).isZero();
            assertThat(again.out()).contains("UNCHANGED");
            JsonNode listed = new ObjectMapper().readTree(tags.out());
            assertThat(listed).hasSize(1);
            assertThat(listed.get(0).path("tag").asText()).isEqualTo("audit-2020-03-01");
            assertThat(listed.get(0).path("snapshot_id").asLong()).isEqualTo(20);
        }
    }

    @Test
    void aConflictingTagNeedsForce() throws IOException {
        try (FakeRestCatalog catalog = new FakeRestCatalog(
                "positions", "", history().tag("audit-2020-03-02", 20, 1000).json())) {
            String uri = catalog.uri().toString();

            Result refused = run("--catalog-uri", uri, "tag", "--date", "2020-03-02");
            Result forced = run("--catalog-uri", uri, "tag", "--date", "2020-03-02", "--force", "--keep", "30d");

            assertThat(refused.exitCode()).isEqualTo(2);
            assertThat(refused.err()).contains("pass --force to move the tag");
            assertThat(forced.exitCode()).isZero();
            assertThat(forced.out()).contains("MOVED", "30d");
        }
    }

    @Test
    void tagWithoutDateTagsYesterdayWhichHasNoSnapshotHere() throws IOException {
        try (FakeRestCatalog catalog = new FakeRestCatalog("positions", "", new TableMetadataJson().json())) {
            Result result = run("--catalog-uri", catalog.uri().toString(), "tag");

            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.err()).startsWith("fleet.positions has no snapshot yet: there is nothing to tag for ");
        }
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new AuditCommand());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    private record Result(int exitCode, String out, String err) {}
}
