package io.fleetlake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.BreakdownDefinition;
import io.fleetlake.bench.report.MetricDefinition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * Runs {@code fleet bench --quick} end to end at a tiny size, in this JVM, on a stack of its own (free ports, a fresh
 * data directory under target/): every phase, the peer and the flight recording included. The figures are not
 * asserted (this machine is shared while tests run); that every metric, breakdown and target of issue 13 has a value
 * or the reason it has none, that the pipeline's drain, the idle and per-phase CPU of the components and the latency
 * per hop were measured, and that nothing the bench started outlives it, are.
 */
class BenchQuickIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(5);

    @Test
    // About 4.5 minutes on a quiet 2-core machine; 15 when four other builds share it (measured at load 80).
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void quickRunReportsEveryMetricAndStopsEverythingItStarted() throws IOException {
        Path dataDirectory =
                Path.of("target", "bench-it-" + Instant.now().toEpochMilli()).toAbsolutePath();
        Path json = dataDirectory.resolve("results.json");
        Path markdown = dataDirectory.resolve("BENCHMARKS.md");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream console = System.out;
        int exitCode;
        try (PrintStream capture = new PrintStream(new TeeStream(console, printed), true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            exitCode = new CommandLine(new BenchCommand())
                    .execute(
                            "--quick",
                            "--records=5000",
                            "--mqtt-records=2000",
                            "--duration=10s",
                            "--rate=200",
                            "--history-fixes=500",
                            "--peer-records=5000",
                            "--checkpoint-interval=" + CHECKPOINT_INTERVAL.toSeconds() + "s",
                            "--phase-timeout=3m",
                            "--idle=10s",
                            "--profile",
                            "--no-append",
                            "--benchmarks-md=" + markdown,
                            "--data-dir=" + dataDirectory,
                            "--json-out=" + json);
        } finally {
            System.setOut(console);
        }
        String output = printed.toString(StandardCharsets.UTF_8);

        assertThat(exitCode)
                .as("exit code of fleet bench; its output:%n%s", output)
                .isZero();
        await("every process the bench started to stop")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(liveDescendants()).isEmpty());
        assertThat(markdown).as("--no-append leaves BENCHMARKS.md alone").doesNotExist();
        assertThat(output)
                .contains("fleet bench on ")
                .contains("Stack ready in ")
                .contains("Targets of issue 13:")
                .contains("Metric");

        JsonNode results = JSON.readTree(Files.readString(json));
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        results.path("metrics").forEach(metric -> byKey.put(metric.path("key").asText(), metric));
        List<String> expected = BenchMetrics.all(CHECKPOINT_INTERVAL).stream()
                .map(MetricDefinition::key)
                .toList();
        assertThat(byKey.keySet()).containsExactlyElementsOf(expected);
        List<String> incomplete = new ArrayList<>();
        for (JsonNode metric : byKey.values()) {
            boolean measured = metric.path("value").isNumber();
            boolean explained = metric.path("notMeasured").asText().length() > 0;
            if (measured == explained) {
                incomplete.add(metric.toString());
            }
        }
        assertThat(incomplete)
                .as("metrics without exactly one of a value and a reason")
                .isEmpty();
        String notMeasured = byKey.values().stream()
                .filter(metric -> !metric.path("value").isNumber())
                .map(metric -> metric.path("key").asText() + ": "
                        + metric.path("notMeasured").asText())
                .collect(Collectors.joining(System.lineSeparator()));
        assertThat(byKey.get("throughput.drain-rate").path("value").isNumber())
                .as("the pipeline's drain was measured; not measured:%n%s", notMeasured)
                .isTrue();
        Map<String, JsonNode> breakdowns = new LinkedHashMap<>();
        results.path("breakdowns")
                .forEach(breakdown -> breakdowns.put(breakdown.path("key").asText(), breakdown));
        assertThat(breakdowns.keySet())
                .containsExactlyElementsOf(BenchMetrics.breakdowns().stream()
                        .map(BreakdownDefinition::key)
                        .toList());
        for (JsonNode breakdown : breakdowns.values()) {
            boolean measured = breakdown.path("rows").size() > 0;
            boolean explained = breakdown.path("notMeasured").asText().length() > 0;
            assertThat(measured != explained)
                    .as("breakdown with exactly one of rows and a reason: %s", breakdown)
                    .isTrue();
        }
        for (String key : List.of(
                BenchMetrics.IDLE_CPU.key(),
                BenchMetrics.IDLE_WARM_CPU.key(),
                BenchMetrics.PHASE_CPU.key(),
                BenchMetrics.HOPS.key())) {
            assertThat(breakdowns.get(key).path("rows").size())
                    .as("%s measured: %s", key, breakdowns.get(key))
                    .isPositive();
        }
        assertThat(breakdowns.get(BenchMetrics.PHASE_CPU.key()).path("columns"))
                .extracting(JsonNode::asText)
                .contains("throughput drain", "latency");
        JsonNode targets = results.path("targets");
        assertThat(targets.size()).as("the nine targets of issue 13").isEqualTo(9);
        for (JsonNode target : targets) {
            assertThat(target.path("verdict").asText()).isIn("MET", "MISSED", "NOT_MEASURED");
            assertThat(target.path("measured").asText()).isNotBlank();
        }
        assertThat(results.path("machine").path("cores").asInt()).isPositive();
        assertThat(results.path("profile").size())
                .as("flight recording summary")
                .isPositive();
    }

    private static List<String> liveDescendants() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(process -> process.pid() + " " + process.info().command().orElse("?"))
                .toList();
    }

    /** Writes to the console and keeps a copy, so the run's progress shows in the test log and can be asserted. */
    private static final class TeeStream extends OutputStream {
        private final PrintStream console;
        private final ByteArrayOutputStream copy;

        TeeStream(PrintStream console, ByteArrayOutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public synchronized void write(int value) {
            console.write(value);
            copy.write(value);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            console.write(bytes, offset, length);
            copy.write(bytes, offset, length);
        }

        @Override
        public void flush() {
            console.flush();
        }
    }
}
