package io.fleetlake.dashboard.pipeline;

import static io.fleetlake.dashboard.fakes.RecordedFlinkRest.json;
import static io.fleetlake.dashboard.fakes.RecordedFlinkRest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.dashboard.pipeline.FlinkRestResponses.JobSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing of responses recorded from Flink 2.1.1 (test resources flink-rest/, see RECORDED.md). */
class FlinkRestResponsesTest {
    @Test
    void runningJobFromTheRecordedOverview() {
        assertThat(FlinkRestResponses.job(resource("jobs-overview.json"), "fleet-pipeline"))
                .contains(new JobSummary("d2875b833b9f3e9a2b87883fb5abd120", "RUNNING", 1795982231926L));
        assertThat(FlinkRestResponses.job(resource("jobs-overview.json"), "other-job"))
                .isEmpty();
    }

    @Test
    void aRunningJobWinsOverNewerEndedRunsOfTheSameName() {
        var overview = json("{\"jobs\":["
                + "{\"jid\":\"a\",\"name\":\"fleet-pipeline\",\"state\":\"CANCELED\",\"start-time\":300},"
                + "{\"jid\":\"b\",\"name\":\"fleet-pipeline\",\"state\":\"RUNNING\",\"start-time\":200},"
                + "{\"jid\":\"c\",\"name\":\"fleet-pipeline\",\"state\":\"FAILED\",\"start-time\":100}]}");

        assertThat(FlinkRestResponses.job(overview, "fleet-pipeline"))
                .map(JobSummary::jobId)
                .contains("b");
    }

    @Test
    void withoutARunningJobTheNewestRunIsReported() {
        var overview = json("{\"jobs\":["
                + "{\"jid\":\"a\",\"name\":\"fleet-pipeline\",\"state\":\"CANCELED\",\"start-time\":100},"
                + "{\"jid\":\"b\",\"name\":\"fleet-pipeline\",\"state\":\"RESTARTING\",\"start-time\":200}]}");

        assertThat(FlinkRestResponses.job(overview, "fleet-pipeline"))
                .map(JobSummary::state)
                .contains("RESTARTING");
    }

    @Test
    void vertexIdsFromTheRecordedJob() {
        assertThat(FlinkRestResponses.vertexIds(resource("job.json")))
                .containsExactly(
                        "da691fee33178846c6d6ccf4574390df",
                        "0abae15e14638604582fd610b8613c09",
                        "7f240539726c3eae95e89855d975d024",
                        "14a29fb48a444cf24330c774dd044940");
    }

    @Test
    void counterIdsAreOperatorScoped() {
        List<String> counters = List.of("recordsRead", "recordsRejected", "recordsAccepted", "resendsDeduplicated");

        assertThat(FlinkRestResponses.counterIds(resource("vertex-0-metrics-list.json"), counters))
                .containsExactlyInAnyOrder("decode-positions.recordsRead", "decode-positions.recordsRejected");
        assertThat(FlinkRestResponses.counterIds(resource("vertex-1-metrics-list.json"), counters))
                .containsExactlyInAnyOrder(
                        "deduplicate-resends.recordsRejected", "deduplicate-resends.resendsDeduplicated");
        assertThat(FlinkRestResponses.counterIds(resource("vertex-2-metrics-list.json"), counters))
                .containsExactlyInAnyOrder(
                        "reject-implausible-jumps.recordsRejected", "reject-implausible-jumps.recordsAccepted");
        assertThat(FlinkRestResponses.counterIds(resource("vertex-3-metrics-list.json"), counters))
                .isEmpty();
    }

    @Test
    void sumsOfTheRecordedAggregation() {
        assertThat(FlinkRestResponses.sums(resource("vertex-0-metrics-sum.json")))
                .containsExactly(
                        entry("decode-positions.recordsRejected", 137.0),
                        entry("decode-positions.recordsRead", 5100.0));
    }

    @Test
    void counterNameIsTheLastSegment() {
        assertThat(FlinkRestResponses.counterName("decode-positions.rejectionReason.OUTSIDE_REGION"))
                .contains("OUTSIDE_REGION");
        assertThat(FlinkRestResponses.counterName("uptime")).isEmpty();
    }

    private static java.util.Map.Entry<String, Double> entry(String key, double value) {
        return java.util.Map.entry(key, value);
    }
}
