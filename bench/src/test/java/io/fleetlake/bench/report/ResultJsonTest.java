package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyMetricHasAValueOrTheReasonItWasNotMeasured() throws IOException {
        JsonNode root = JSON.readTree(ResultJson.render(ResultsFixture.results()));

        JsonNode metrics = root.path("metrics");
        assertThat(metrics.size()).isEqualTo(ResultsFixture.metrics().size());
        for (JsonNode metric : metrics) {
            assertThat(metric.path("key").asText()).isNotBlank();
            if (metric.path("value").isNull()) {
                assertThat(metric.path("notMeasured").asText()).isEqualTo("the phase failed: it | broke");
                assertThat(metric.path("verdict").asText()).isEqualTo("NOT_MEASURED");
            } else {
                assertThat(metric.path("value").isNumber()).isTrue();
                assertThat(metric.has("notMeasured")).isFalse();
            }
        }
    }

    @Test
    void carriesTargetsVerdictsMachineSettingsNotesAndProfile() throws IOException {
        JsonNode root = JSON.readTree(ResultJson.render(ResultsFixture.results()));

        JsonNode drain = find(root, "throughput.drain-rate");
        assertThat(drain.path("value").asDouble()).isEqualTo(1_001);
        assertThat(drain.path("target").asText()).isEqualTo(">= 30,000 msg/s");
        assertThat(drain.path("verdict").asText()).isEqualTo("MISSED");
        assertThat(drain.path("reference").asText()).isEqualTo(BenchMetrics.REFERENCE_THROUGHPUT);
        assertThat(drain.path("method").asText()).isEqualTo("method 1");
        assertThat(find(root, "throughput.producer-rate").path("target").isNull())
                .isTrue();
        assertThat(root.path("machine").path("cores").asInt()).isEqualTo(2);
        assertThat(root.path("machine").path("loadAverageAtEnd").asText()).isEqualTo("1.00 0.80 0.60");
        assertThat(root.path("settings").path("records").asText()).isEqualTo("1,000");
        assertThat(root.path("notes").get(0).asText()).isEqualTo("Warm-up excluded.");
        assertThat(root.path("profile").size()).isEqualTo(2);
    }

    @Test
    void carriesTheTargetsOfIssue13AndTheBreakdownsWithNumbersOrTheReason() throws IOException {
        JsonNode root = JSON.readTree(ResultJson.render(ResultsFixture.results()));

        JsonNode targets = root.path("targets");
        assertThat(targets.size()).isEqualTo(9);
        assertThat(targets.get(0).path("figure").asText())
                .isEqualTo("pipeline drain Kafka -> Iceberg + Redis (steady)");
        assertThat(targets.get(0).path("verdict").asText()).isIn("MET", "MISSED", "NOT_MEASURED");
        JsonNode hops = root.path("breakdowns").get(0);
        assertThat(hops.path("key").asText()).isEqualTo("latency.hops");
        assertThat(hops.path("columns").get(1).asText()).isEqualTo("p95 ms");
        assertThat(hops.path("rows").get(0).path("label").asText()).isEqualTo("device -> received");
        assertThat(hops.path("rows").get(0).path("values").get(1).asDouble()).isEqualTo(40);
        assertThat(hops.path("rows").get(1).path("values").get(1).isNull()).isTrue();
        assertThat(hops.path("notes").get(0).asText()).isEqualTo("Send time = event time.");
        JsonNode tenths = root.path("breakdowns").get(1);
        assertThat(tenths.path("notMeasured").asText()).isEqualTo("the backlog | was too small");
        assertThat(tenths.has("rows")).isFalse();
    }

    @Test
    void writesTheFileCreatingItsDirectory(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("out/bench-results.json");

        ResultJson.write(ResultsFixture.results(), file);

        assertThat(JSON.readTree(Files.readString(file)).path("metrics").size())
                .isEqualTo(ResultsFixture.metrics().size());
    }

    private static JsonNode find(JsonNode root, String key) {
        for (JsonNode metric : root.path("metrics")) {
            if (metric.path("key").asText().equals(key)) {
                return metric;
            }
        }
        throw new AssertionError("No metric " + key);
    }
}
