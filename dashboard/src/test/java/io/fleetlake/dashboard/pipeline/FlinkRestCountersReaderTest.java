package io.fleetlake.dashboard.pipeline;

import static io.fleetlake.dashboard.fakes.RecordedFlinkRest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.dashboard.fakes.RecordedFlinkRest;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class FlinkRestCountersReaderTest {
    @Test
    void countersSummedOverOperatorsAndSubtasksOfTheRecordedJob() throws Exception {
        RecordedFlinkRest rest = RecordedFlinkRest.recorded();

        PipelineCounters counters = new FlinkRestCountersReader(rest).read();

        // decode-positions 137 + deduplicate-resends 116 + reject-implausible-jumps 103 rejected.
        assertThat(counters).isEqualTo(new PipelineCounters(RecordedFlinkRest.JOB_ID, 5100, 356, 4742, 125));
        assertThat(counters.rejectionRate()).hasValue(356.0 / 5100);
    }

    @Test
    void asksForTheListedOperatorMetricIdsSummed() throws Exception {
        RecordedFlinkRest rest = RecordedFlinkRest.recorded();

        new FlinkRestCountersReader(rest).read();

        assertThat(rest.requests())
                .contains("/jobs/overview", "/jobs/" + RecordedFlinkRest.JOB_ID)
                .anySatisfy(request -> assertThat(request)
                        .endsWith("/vertices/da691fee33178846c6d6ccf4574390df/subtasks/metrics"
                                + "?get=decode-positions.recordsRejected%2Cdecode-positions.recordsRead&agg=sum"))
                .as("a vertex without counters is not asked for sums")
                .noneMatch(request -> request.contains("14a29fb48a444cf24330c774dd044940/subtasks/metrics?"));
    }

    @Test
    void unreachableFlinkSaysSo() {
        FlinkRestCountersReader reader = new FlinkRestCountersReader(path -> {
            throw new IOException(
                    "Flink REST API at 127.0.0.1:8081 is unreachable: ConnectException", new ConnectException());
        });

        assertThatThrownBy(reader::read)
                .isInstanceOf(PipelineCountersUnavailableException.class)
                .hasMessage("Flink REST API at 127.0.0.1:8081 is unreachable: ConnectException");
    }

    @Test
    void noJobOfThatName() {
        RecordedFlinkRest rest = new RecordedFlinkRest().answer("/jobs/overview", json("{\"jobs\":[]}"));

        assertThatThrownBy(() -> new FlinkRestCountersReader(rest).read())
                .isInstanceOf(PipelineCountersUnavailableException.class)
                .hasMessage("the Flink cluster runs no job named fleet-pipeline");
    }

    @Test
    void aJobThatIsNotRunning() {
        RecordedFlinkRest rest = new RecordedFlinkRest()
                .answer(
                        "/jobs/overview",
                        json("{\"jobs\":[{\"jid\":\"d2875b833b9f3e9a2b87883fb5abd120\",\"name\":\"fleet-pipeline\","
                                + "\"state\":\"RESTARTING\",\"start-time\":1}]}"));

        assertThatThrownBy(() -> new FlinkRestCountersReader(rest).read())
                .isInstanceOf(PipelineCountersUnavailableException.class)
                .hasMessage("the job fleet-pipeline is RESTARTING");
    }

    @Test
    void countersNotReportedYet() {
        RecordedFlinkRest rest = new RecordedFlinkRest()
                .answer("/jobs/overview", RecordedFlinkRest.resource("jobs-overview.json"))
                .answer("/jobs/" + RecordedFlinkRest.JOB_ID, RecordedFlinkRest.resource("job.json"));
        for (String vertex : FlinkRestResponses.vertexIds(RecordedFlinkRest.resource("job.json"))) {
            rest.answer("/jobs/" + RecordedFlinkRest.JOB_ID + "/vertices/" + vertex + "/subtasks/metrics", json("[]"));
        }

        assertThatThrownBy(() -> new FlinkRestCountersReader(rest).read())
                .isInstanceOf(PipelineCountersUnavailableException.class)
                .hasMessageContaining("has not reported its counters yet");
    }

    @Test
    void anUnexpectedIdIsNotPutIntoARequestPath() {
        RecordedFlinkRest rest = new RecordedFlinkRest()
                .answer(
                        "/jobs/overview",
                        json("{\"jobs\":[{\"jid\":\"../../x\",\"name\":\"fleet-pipeline\",\"state\":\"RUNNING\"}]}"));

        assertThatThrownBy(() -> new FlinkRestCountersReader(rest).read())
                .isInstanceOf(PipelineCountersUnavailableException.class)
                .hasMessageContaining("unexpected id '../../x'");
        assertThat(rest.requests()).containsExactly("/jobs/overview");
    }

    @Test
    void rateIsUndefinedBeforeAnyRecord() {
        assertThat(new PipelineCounters("job", 0, 0, 0, 0).rejectionRate()).isEmpty();
        assertThat(new PipelineCounters("job", 200, 5, 190, 5).rejectionRate()).hasValue(0.025);
    }
}
