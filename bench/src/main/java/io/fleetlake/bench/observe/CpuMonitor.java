package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.observe.ProcStat.MachineTime;
import io.fleetlake.bench.observe.ProcStat.ProcessTime;
import io.fleetlake.bench.observe.ProcStat.ThreadTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPU time of each component of a bench run, sampled from {@code /proc} once a second so that the CPU of any
 * window of the run (a phase, the idle minute) can be computed afterwards, and the CPU of the whole machine beside it
 * (on a shared machine, what the run's processes did not use went to someone else).
 *
 * <p>A component is whatever process its source hands out at a sample, plus that process's descendants when asked
 * for (a server may start helpers of its own). A component's total is the sum over every process it ever had of the
 * last CPU time seen for that process, so a restart in a window does not make its CPU go backwards; what a stopped
 * process used after its last sample (at most a second) is lost and said so in the method notes.
 */
public final class CpuMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CpuMonitor.class);
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    /**
     * Listing a process's descendants reads the stat file of every process on the machine; the processes a component
     * starts change rarely, so the list is refreshed this often, not at every sample (at every sample it cost the
     * bench's JVM 3.6 ms per listing, 2.6 CPU-s per minute for 12 components, with 118 processes on the machine).
     */
    private static final Duration DESCENDANTS_REFRESH = Duration.ofSeconds(30);

    private final ProcStat proc;
    private final Map<String, ProcessSource> sources;
    private final Clock clock;
    private final Map<String, Map<ProcessKey, Long>> lastTicks = new LinkedHashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Map<Long, Descendants> descendants = new HashMap<>();
    private ScheduledExecutorService sampler;

    /**
     * @param sources the components by name, in the order of the reports
     */
    public CpuMonitor(ProcStat proc, Map<String, ProcessSource> sources, Clock clock) {
        this.proc = requireNonNull(proc, "proc is null");
        this.sources = new LinkedHashMap<>(requireNonNull(sources, "sources is null"));
        this.clock = requireNonNull(clock, "clock is null");
        this.sources.keySet().forEach(name -> lastTicks.put(name, new HashMap<>()));
    }

    /** Samples now and then every second on a daemon thread, until {@link #close()}. */
    public synchronized void start() {
        if (sampler != null) {
            throw new IllegalStateException("The CPU monitor was already started");
        }
        sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "bench-cpu-monitor");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleAtFixedRate(this::sampleQuietly, 0, SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            // One failed sample leaves a gap that interpolation spans; the next one is tried a second later.
            LOG.warn("Sampling the components' CPU time failed", e);
        }
    }

    /** Takes one sample now; {@link #start()} does this every second. */
    public synchronized Sample sample() {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (Map.Entry<String, ProcessSource> source : sources.entrySet()) {
            Map<ProcessKey, Long> seen = lastTicks.get(source.getKey());
            for (ProcessTime time : processesOf(source.getValue())) {
                seen.put(new ProcessKey(time.pid(), time.startTicks()), time.ticks());
            }
            totals.put(
                    source.getKey(),
                    seen.values().stream().mapToLong(Long::longValue).sum());
        }
        List<String> running = sources.keySet().stream()
                .filter(name -> !lastTicks.get(name).isEmpty())
                .toList();
        Sample sample = new Sample(clock.instant(), totals, proc.machine(), running);
        samples.add(sample);
        return sample;
    }

    private List<ProcessTime> processesOf(ProcessSource source) {
        Optional<ProcessHandle> handle = source.process().get();
        if (handle.isEmpty()) {
            return List.of();
        }
        Stream<Long> pids = source.withDescendants()
                ? Stream.concat(Stream.of(handle.get().pid()), descendantsOf(handle.get()).stream())
                : Stream.of(handle.get().pid());
        return pids.map(proc::process).flatMap(Optional::stream).toList();
    }

    private List<Long> descendantsOf(ProcessHandle process) {
        Instant now = clock.instant();
        Descendants known = descendants.get(process.pid());
        if (known == null || !now.isBefore(known.listed().plus(DESCENDANTS_REFRESH))) {
            known = new Descendants(
                    process.descendants().map(ProcessHandle::pid).toList(), now);
            descendants.put(process.pid(), known);
        }
        return known.pids();
    }

    /**
     * The CPU each component used between two moments of the run, interpolated between the samples around them (a
     * sample is taken now when {@code to} is later than the last one).
     */
    public CpuUsage usage(Instant from, Instant to) {
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("The window must end after it starts: " + from + " to " + to);
        }
        List<Sample> taken;
        synchronized (this) {
            if (samples.isEmpty() || samples.get(samples.size() - 1).time().isBefore(to)) {
                sample();
            }
            taken = List.copyOf(samples);
        }
        return CpuUsage.between(taken, from, to);
    }

    /** CPU time of each thread of a component's process now, by thread name; empty when it has no process. */
    public Map<String, Long> threadTicks(String component) {
        ProcessSource source = sources.get(component);
        if (source == null) {
            throw new IllegalArgumentException("No component " + component + "; known: " + sources.keySet());
        }
        Map<String, Long> byName = new HashMap<>();
        Optional<ProcessHandle> handle = source.process().get();
        if (handle.isEmpty()) {
            return byName;
        }
        for (ThreadTime thread : proc.threads(handle.get().pid())) {
            byName.merge(threadGroup(thread.name()), thread.ticks(), Long::sum);
        }
        return byName;
    }

    /** The components, in report order. */
    public List<String> components() {
        return List.copyOf(sources.keySet());
    }

    /**
     * Threads of one pool share a name up to their number ({@code kafka-request-handler-3}); they are reported
     * together.
     */
    static String threadGroup(String name) {
        return name.replaceAll("\\d+", "#");
    }

    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.shutdownNow();
            sampler = null;
        }
    }

    /**
     * Where a component's process comes from.
     *
     * @param process the process now, empty while it is not running
     * @param withDescendants whether the processes it started count as part of it
     */
    public record ProcessSource(Supplier<Optional<ProcessHandle>> process, boolean withDescendants) {
        public ProcessSource {
            requireNonNull(process, "process is null");
        }
    }

    /** The descendants of a process when they were last listed. */
    private record Descendants(List<Long> pids, Instant listed) {}

    /** A process, told apart from a later one that gets the same pid by its start time. */
    private record ProcessKey(long pid, long startTicks) {}

    /**
     * One sample.
     *
     * @param ticks each component's CPU so far, over every process it had
     * @param machine the whole machine's CPU since boot
     * @param running the components that have had a process so far
     */
    public record Sample(Instant time, Map<String, Long> ticks, MachineTime machine, List<String> running) {
        public Sample {
            requireNonNull(time, "time is null");
            ticks = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(ticks, "ticks is null")));
            requireNonNull(machine, "machine is null");
            running = List.copyOf(requireNonNull(running, "running is null"));
        }
    }
}
