package io.fleetlake.bench.report;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Results of a made-up run: every metric of the bench, one in three not measured. */
final class ResultsFixture {
    static final MachineDescription MACHINE = new MachineDescription(
            2,
            25_769_803_776L,
            "OpenJDK 64-Bit Server VM 17.0.15",
            "Linux 6.1 amd64",
            Instant.parse("2026-11-29T21:30:00Z"),
            "0.50 0.40 0.30");

    private ResultsFixture() {}

    static List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        List<MetricDefinition> all = BenchMetrics.all(Duration.ofSeconds(10));
        for (int index = 0; index < all.size(); index++) {
            MetricDefinition definition = all.get(index);
            metrics.add(
                    index % 3 == 2
                            ? Metric.notMeasured(definition, "the phase failed: it | broke")
                            : Metric.measured(definition, 1_000 + index, "method " + index));
        }
        return metrics;
    }

    static List<Breakdown> breakdowns() {
        return List.of(
                Breakdown.measured(
                        "latency.hops",
                        "Where the time goes",
                        "hop",
                        List.of("p50 ms", "p95 ms"),
                        List.of(
                                Breakdown.Row.of("device -> received", 12, 40),
                                new Breakdown.Row("received -> Kafka", List.of(Optional.of(250.0), Optional.empty()))),
                        List.of("Send time = event time.")),
                Breakdown.notMeasured("throughput.deciles", "Rate per tenth", "the backlog | was too small"));
    }

    static BenchResults results() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("records", "1,000");
        settings.put("mode", "quick");
        return new BenchResults(
                MACHINE,
                settings,
                metrics(),
                IssueTargets.evaluate(metrics(), Map.of(), Duration.ofSeconds(10)),
                breakdowns(),
                List.of("Warm-up excluded."),
                List.of("1,234 execution samples", "  50.0 %  Parquet writing"),
                "1.00 0.80 0.60");
    }
}
