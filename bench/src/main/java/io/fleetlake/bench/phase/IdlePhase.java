package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.observe.CpuMonitor;
import io.fleetlake.bench.observe.CpuUsage;
import io.fleetlake.bench.observe.ProcStat;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.report.BreakdownDefinition;
import io.fleetlake.bench.report.ResultCollector.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The stack at zero load: nothing is sent for {@code --idle}; the CPU every component uses in that window is what it
 * burns for nothing, per minute, and the threads that burn it in the busiest components say why (a poll loop, a metrics
 * reporter, a compiler still at work). Measured twice: right after the stack started ({@link #AFTER_START}, the first
 * phase, where the JIT compilers of every JVM are still at work) and once more after every other phase ({@link #WARM},
 * what a stack that has run for a while costs while nothing happens, as overnight).
 */
public final class IdlePhase {
    /**
     * Right after the stack was ready: start-up work that trails the readiness probes (class loading, the first
     * compilations) is left out by 10 s of settling.
     */
    public static final Stage AFTER_START = new Stage(
            "idle",
            BenchMetrics.IDLE_CPU,
            BenchMetrics.IDLE_THREADS,
            Duration.ofSeconds(10),
            "after the stack was ready");

    /**
     * After every other phase, when the last positions have been committed (30 s of settling: more than the checkpoint
     * interval of every run so far) and the compilers have seen the load.
     */
    public static final Stage WARM = new Stage(
            "idle, warm",
            BenchMetrics.IDLE_WARM_CPU,
            BenchMetrics.IDLE_WARM_THREADS,
            Duration.ofSeconds(30),
            "after every other phase had run");

    private static final int TOP_COMPONENTS = 5;
    private static final int TOP_THREADS = 4;

    private final PhaseContext context;
    private final Stage stage;

    public IdlePhase(PhaseContext context, Stage stage) {
        this.context = requireNonNull(context, "context is null");
        this.stage = requireNonNull(stage, "stage is null");
    }

    public void run() throws InterruptedException {
        Duration idle = context.settings().idle();
        CpuMonitor cpu = context.stack().cpu();
        context.console()
                .progress(
                        "Idle (%s): %d s settling, then %d s at zero load (CPU of every component)",
                        stage.window(), stage.settle().toSeconds(), idle.toSeconds());
        TimeUnit.MILLISECONDS.sleep(stage.settle().toMillis());
        Map<String, Map<String, Long>> threadsBefore = threads(cpu);
        Instant from = Instant.now();
        TimeUnit.MILLISECONDS.sleep(idle.toMillis());
        Instant to = Instant.now();
        Map<String, Map<String, Long>> threadsAfter = threads(cpu);
        context.results().window(new Window(stage.window(), from, to, OptionalLong.empty()));

        CpuUsage usage = cpu.usage(from, to);
        double perMinute = 60 / usage.wallSeconds();
        List<Breakdown.Row> rows = new ArrayList<>();
        usage.cpuSeconds().entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(component -> rows.add(Breakdown.Row.of(
                        CpuReport.label(component.getKey()),
                        component.getValue() * perMinute,
                        component.getValue() / usage.wallSeconds() * 100)));
        double stack = CpuReport.stackTotal(usage);
        rows.add(Breakdown.Row.of(CpuReport.STACK_TOTAL, stack * perMinute, stack / usage.wallSeconds() * 100));
        rows.add(Breakdown.Row.of(
                CpuReport.OTHERS,
                CpuReport.others(usage) * perMinute,
                CpuReport.others(usage) / usage.wallSeconds() * 100));
        context.results()
                .breakdown(stage.cpu()
                        .measured(
                                "component",
                                List.of("CPU-s per minute", "% of one core"),
                                rows,
                                List.of(String.format(
                                        Locale.ROOT,
                                        "%.0f s with no load, %d s %s; user + system CPU from"
                                                + " /proc/<pid>/stat of each component's process (and the processes it started),"
                                                + " sampled every second. \"%s\" is every other process on this shared machine"
                                                + " (other builds and tests): it tells how noisy the run was.",
                                        usage.wallSeconds(),
                                        stage.settle().toSeconds(),
                                        stage.when(),
                                        CpuReport.OTHERS))));
        context.results().breakdown(busiestThreads(usage, threadsBefore, threadsAfter, perMinute));
        context.console()
                .progress(
                        "  %s stack: %.1f CPU-s per minute (%.0f %% of one core); busiest %s",
                        stage.window(),
                        stack * perMinute,
                        stack / usage.wallSeconds() * 100,
                        rows.isEmpty() ? "none" : rows.get(0).label());
    }

    private static Map<String, Map<String, Long>> threads(CpuMonitor cpu) {
        Map<String, Map<String, Long>> threads = new HashMap<>();
        for (String component : cpu.components()) {
            threads.put(component, cpu.threadTicks(component));
        }
        return threads;
    }

    private Breakdown busiestThreads(
            CpuUsage usage,
            Map<String, Map<String, Long>> before,
            Map<String, Map<String, Long>> after,
            double perMinute) {
        List<String> busiest = usage.cpuSeconds().entrySet().stream()
                .filter(component -> !component.getKey().equals(BenchStack.BENCH))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(TOP_COMPONENTS)
                .map(Map.Entry::getKey)
                .toList();
        List<Breakdown.Row> rows = new ArrayList<>();
        for (String component : busiest) {
            Map<String, Long> start = before.getOrDefault(component, Map.of());
            after.getOrDefault(component, Map.of()).entrySet().stream()
                    .map(thread ->
                            Map.entry(thread.getKey(), thread.getValue() - start.getOrDefault(thread.getKey(), 0L)))
                    .filter(thread -> thread.getValue() > 0)
                    .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                    .limit(TOP_THREADS)
                    .forEach(thread -> rows.add(Breakdown.Row.of(
                            CpuReport.label(component) + ": " + thread.getKey(),
                            thread.getValue() / (double) ProcStat.TICKS_PER_SECOND * perMinute)));
        }
        if (rows.isEmpty()) {
            return stage.threads().notMeasured("no thread of the stack used CPU in the idle window");
        }
        return stage.threads()
                .measured(
                        "component: thread",
                        List.of("CPU-s per minute"),
                        rows,
                        List.of(
                                "Threads from /proc/<pid>/task/*/stat, named as the kernel knows them (15 characters at most,"
                                        + " numbers shown as #, so the threads of one pool count together); only threads alive at both"
                                        + " ends of the window."));
    }

    /**
     * One idle measurement: its window in the CPU report, its two breakdowns, how long the stack settles first, and
     * when it is taken, in words.
     */
    public record Stage(
            String window, BreakdownDefinition cpu, BreakdownDefinition threads, Duration settle, String when) {
        public Stage {
            requireNonNull(window, "window is null");
            requireNonNull(cpu, "cpu is null");
            requireNonNull(threads, "threads is null");
            requireNonNull(settle, "settle is null");
            requireNonNull(when, "when is null");
        }
    }
}
