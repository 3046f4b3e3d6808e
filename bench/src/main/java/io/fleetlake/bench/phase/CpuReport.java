package io.fleetlake.bench.phase;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.observe.CpuMonitor;
import io.fleetlake.bench.observe.CpuUsage;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.report.ResultCollector.Window;
import io.fleetlake.stack.FleetStack;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The CPU of every component per million records of each window the phases recorded (the throughput drain, each
 * side-by-side consumer, the MQTT, latency and time-travel phases), from the {@link CpuMonitor}'s samples.
 */
public final class CpuReport {
    static final String STACK_TOTAL = "stack total (components above, without bench and peer)";
    static final String OTHERS = "other processes on this machine";

    private static final Map<String, String> LABELS = labels();

    private CpuReport() {}

    private static Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(FleetStack.KAFKA, "Kafka broker");
        labels.put(FleetStack.S3, "S3 (S3Proxy)");
        labels.put(FleetStack.MQTT, "MQTT broker (HiveMQ)");
        labels.put(FleetStack.REDIS, "Redis");
        labels.put(FleetStack.CATALOG, "Iceberg REST catalog");
        labels.put(FleetStack.CONNECT, "Kafka Connect (MQTT source)");
        labels.put(FleetStack.PLANNING, "planning API");
        labels.put(FleetStack.PIPELINE, "pipeline (Flink)");
        labels.put(FleetStack.TRINO, "Trino");
        labels.put(FleetStack.DASHBOARD, "dashboard");
        labels.put(BenchStack.PEER, "Iceberg Kafka Connect sink (peer)");
        labels.put(BenchStack.BENCH, "bench JVM (load, observers)");
        return labels;
    }

    /** How a component is named in the reports. */
    static String label(String component) {
        return LABELS.getOrDefault(component, component);
    }

    /** CPU seconds of the stack's own components: everything but the bench's JVM and the peer's worker. */
    static double stackTotal(CpuUsage usage) {
        return usage.cpuSeconds().entrySet().stream()
                .filter(component -> !component.getKey().equals(BenchStack.BENCH)
                        && !component.getKey().equals(BenchStack.PEER))
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    /** CPU seconds the machine spent on processes that are not the run's (never below zero). */
    static double others(CpuUsage usage) {
        return Math.max(0, usage.machineBusySeconds() - usage.total());
    }

    /** The CPU per million records of every window that processed records, as one breakdown. */
    public static Breakdown perMillion(CpuMonitor cpu, List<Window> windows) {
        List<Window> measured = windows.stream()
                .filter(window ->
                        window.records().isPresent() && window.records().getAsLong() > 0)
                .toList();
        if (measured.isEmpty()) {
            return BenchMetrics.PHASE_CPU.notMeasured("no phase that processes records completed");
        }
        List<CpuUsage> usages = measured.stream()
                .map(window -> cpu.usage(window.from(), window.to()))
                .toList();
        List<String> components = new ArrayList<>();
        for (CpuUsage usage : usages) {
            usage.cpuSeconds().keySet().stream()
                    .filter(component -> !components.contains(component))
                    .forEach(components::add);
        }
        List<Breakdown.Row> rows = new ArrayList<>();
        for (String component : components) {
            List<Optional<Double>> values = new ArrayList<>();
            for (int index = 0; index < measured.size(); index++) {
                Double seconds = usages.get(index).cpuSeconds().get(component);
                values.add(Optional.ofNullable(seconds).map(perMillion(measured.get(index))::apply));
            }
            rows.add(new Breakdown.Row(label(component), values));
        }
        rows.add(row(STACK_TOTAL, measured, usages, CpuReport::stackTotal));
        rows.add(row(OTHERS, measured, usages, CpuReport::others));
        List<String> notes = new ArrayList<>();
        for (int index = 0; index < measured.size(); index++) {
            Window window = measured.get(index);
            CpuUsage usage = usages.get(index);
            notes.add(String.format(
                    Locale.ROOT,
                    "%s: %,d records in %.1f s; stack %.1f CPU-s (%.2f cores), machine busy %.1f of %.1f CPU-s.",
                    window.name(),
                    window.records().getAsLong(),
                    usage.wallSeconds(),
                    stackTotal(usage),
                    stackTotal(usage) / usage.wallSeconds(),
                    usage.machineBusySeconds(),
                    usage.machineSeconds()));
        }
        notes.add("User + system CPU from /proc/<pid>/stat of each component's process (and the processes it"
                + " started), sampled every second and interpolated to the window; a process stopped in a window"
                + " (the pipeline between backlogs) loses at most its last second. The records of a window are the"
                + " rows it committed or the messages it sent; the MQTT and time-travel windows span the whole phase.");
        return BenchMetrics.PHASE_CPU.measured(
                "component", measured.stream().map(Window::name).toList(), rows, notes);
    }

    private static Function<Double, Double> perMillion(Window window) {
        return seconds -> seconds / window.records().getAsLong() * 1_000_000;
    }

    private static Breakdown.Row row(
            String label, List<Window> windows, List<CpuUsage> usages, ToDoubleFunction<CpuUsage> seconds) {
        List<Optional<Double>> values = new ArrayList<>();
        for (int index = 0; index < windows.size(); index++) {
            values.add(Optional.of(perMillion(windows.get(index)).apply(seconds.applyAsDouble(usages.get(index)))));
        }
        return new Breakdown.Row(label, values);
    }
}
