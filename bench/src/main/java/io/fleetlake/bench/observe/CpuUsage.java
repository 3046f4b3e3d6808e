package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.observe.CpuMonitor.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The CPU each component used in a window of the run, and the whole machine's beside it.
 *
 * @param cpuSeconds user + system CPU seconds of each component that had a process by the end of the window, in the
 *     monitor's order
 * @param machineBusySeconds CPU seconds the whole machine was busy in the window (all processes, all cores)
 * @param machineSeconds CPU seconds the machine had in the window (wall time x cores, as the kernel counts it)
 */
public record CpuUsage(
        Instant from, Instant to, Map<String, Double> cpuSeconds, double machineBusySeconds, double machineSeconds) {
    public CpuUsage {
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        cpuSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(cpuSeconds, "cpuSeconds is null")));
    }

    /** The usage between two moments, interpolated linearly between the samples around each of them. */
    static CpuUsage between(List<Sample> samples, Instant from, Instant to) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("No CPU sample was taken");
        }
        Sample last = samples.get(samples.size() - 1);
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (String component : last.ticks().keySet()) {
            if (!last.running().contains(component)) {
                continue;
            }
            ToDoubleFunction<Sample> ticks = sample -> sample.ticks().getOrDefault(component, 0L);
            cpu.put(component, (at(samples, to, ticks) - at(samples, from, ticks)) / ProcStat.TICKS_PER_SECOND);
        }
        double busy = (at(samples, to, sample -> sample.machine().busyTicks())
                        - at(samples, from, sample -> sample.machine().busyTicks()))
                / ProcStat.TICKS_PER_SECOND;
        double all = (at(samples, to, CpuUsage::machineTicks) - at(samples, from, CpuUsage::machineTicks))
                / ProcStat.TICKS_PER_SECOND;
        return new CpuUsage(from, to, cpu, busy, all);
    }

    private static double machineTicks(Sample sample) {
        return sample.machine().busyTicks() + sample.machine().idleTicks();
    }

    /** A sampled counter at a moment: linear between the samples around it, the nearest sample outside them. */
    static double at(List<Sample> samples, Instant time, ToDoubleFunction<Sample> counter) {
        Sample first = samples.get(0);
        if (!time.isAfter(first.time())) {
            return counter.applyAsDouble(first);
        }
        for (int index = 1; index < samples.size(); index++) {
            Sample after = samples.get(index);
            if (!time.isAfter(after.time())) {
                Sample before = samples.get(index - 1);
                double span = Duration.between(before.time(), after.time()).toNanos();
                double share =
                        span <= 0 ? 1 : Duration.between(before.time(), time).toNanos() / span;
                double start = counter.applyAsDouble(before);
                return start + (counter.applyAsDouble(after) - start) * share;
            }
        }
        return counter.applyAsDouble(samples.get(samples.size() - 1));
    }

    public double wallSeconds() {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    /** CPU seconds of the named components together. */
    public double total(List<String> components) {
        return components.stream()
                .mapToDouble(component -> cpuSeconds.getOrDefault(component, 0.0))
                .sum();
    }

    /** CPU seconds of every component together. */
    public double total() {
        return cpuSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
