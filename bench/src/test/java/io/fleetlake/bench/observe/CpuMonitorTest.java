package io.fleetlake.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.bench.observe.CpuMonitor.ProcessSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuMonitorTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void aComponentKeepsTheCpuOfAProcessItRestartedAndCountsItsChildren(@TempDir Path root) throws IOException {
        MutableClock clock = new MutableClock(T0);
        AtomicReference<Optional<ProcessHandle>> pipeline =
                new AtomicReference<>(Optional.of(new FakeProcess(100, 101)));
        Map<String, ProcessSource> sources = new LinkedHashMap<>();
        sources.put("pipeline", new ProcessSource(pipeline::get, true));
        sources.put("redis", new ProcessSource(() -> Optional.of(new FakeProcess(200)), false));
        sources.put("never", new ProcessSource(Optional::empty, true));
        CpuMonitor monitor = new CpuMonitor(new ProcStat(root), sources, clock);

        write(root, 100, 1_000, 7);
        write(root, 101, 200, 8);
        write(root, 200, 50, 9);
        machine(root, 100, 100);
        monitor.sample();
        clock.advanceSeconds(10);
        write(root, 100, 1_500, 7);
        write(root, 101, 300, 8);
        write(root, 200, 60, 9);
        machine(root, 200, 200);
        monitor.sample();
        // The pipeline restarts as pid 102: its old process's last value stays counted.
        pipeline.set(Optional.of(new FakeProcess(102)));
        clock.advanceSeconds(10);
        write(root, 102, 400, 50);
        write(root, 200, 80, 9);
        machine(root, 300, 300);
        monitor.sample();

        CpuUsage whole = monitor.usage(T0, T0.plusSeconds(20));
        assertThat(whole.cpuSeconds()).containsOnlyKeys("pipeline", "redis");
        // (1,500 + 300 + 400) - (1,000 + 200) ticks = 10 s.
        assertThat(whole.cpuSeconds().get("pipeline")).isCloseTo(10.0, within(1e-9));
        assertThat(whole.cpuSeconds().get("redis")).isCloseTo(0.3, within(1e-9));
        assertThat(whole.machineBusySeconds()).isCloseTo(2.0, within(1e-9));
        assertThat(whole.machineSeconds()).isCloseTo(4.0, within(1e-9));

        CpuUsage middle = monitor.usage(T0.plusSeconds(5), T0.plusSeconds(15));
        // Half of the first interval (300 ticks) and half of the second (200 ticks).
        assertThat(middle.cpuSeconds().get("pipeline")).isCloseTo(5.0, within(1e-9));
        assertThat(middle.wallSeconds()).isEqualTo(10.0);
    }

    @Test
    void threadsOfOnePoolAreReportedTogether() {
        assertThat(CpuMonitor.threadGroup("kafka-request-handler-3")).isEqualTo("kafka-request-handler-#");
        assertThat(CpuMonitor.threadGroup("G1 Conc#0")).isEqualTo("G# Conc##");
        assertThat(CpuMonitor.threadGroup("VM Thread")).isEqualTo("VM Thread");
    }

    private static void write(Path root, long pid, long ticks, long start) throws IOException {
        Path process = Files.createDirectories(root.resolve(Long.toString(pid)));
        Files.writeString(process.resolve("stat"), ProcStatTest.statLine(pid, "java", ticks, 0, start));
    }

    private static void machine(Path root, long busy, long idle) throws IOException {
        Files.writeString(root.resolve("stat"), "cpu  " + busy + " 0 0 " + idle + " 0 0 0 0 0 0\n");
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advanceSeconds(long seconds) {
            now = now.plusSeconds(seconds);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** A process handle that only knows its pid and its children's. */
    private record FakeProcess(long pid, List<Long> childPids) implements ProcessHandle {
        FakeProcess(long pid, long... children) {
            this(pid, Arrays.stream(children).boxed().toList());
        }

        @Override
        public Optional<ProcessHandle> parent() {
            return Optional.empty();
        }

        @Override
        public Stream<ProcessHandle> children() {
            return childPids.stream().map(FakeProcess::new);
        }

        @Override
        public Stream<ProcessHandle> descendants() {
            return children();
        }

        @Override
        public Info info() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<ProcessHandle> onExit() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean supportsNormalTermination() {
            return false;
        }

        @Override
        public boolean destroy() {
            return false;
        }

        @Override
        public boolean destroyForcibly() {
            return false;
        }

        @Override
        public boolean isAlive() {
            return true;
        }

        @Override
        public int compareTo(ProcessHandle other) {
            return Long.compare(pid, other.pid());
        }
    }
}
