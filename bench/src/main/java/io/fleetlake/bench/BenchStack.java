package io.fleetlake.bench;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.observe.CpuMonitor;
import io.fleetlake.bench.observe.CpuMonitor.ProcessSource;
import io.fleetlake.bench.observe.ProcStat;
import io.fleetlake.bench.observe.TrinoClient;
import io.fleetlake.bench.peer.PeerSink;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded stack a bench run starts for itself: free ports, a fresh data directory, the run's checkpoint interval,
 * the planning API serving the routes of the bench's fleet, and with {@code --profile} a flight recording of every
 * pipeline JVM (through {@code stack.jvm-options.pipeline}).
 */
public final class BenchStack implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BenchStack.class);

    /** The peer's Connect worker in the CPU report. */
    public static final String PEER = "bench-peer";
    /** The bench's own JVM in the CPU report. */
    public static final String BENCH = "bench";

    private final EmbeddedStack stack;
    private final StackSettings settings;
    private final FleetSimulatorConfig simulator;
    private final Path profileDirectory;
    private final TrinoClient trino;
    /** Processes the bench starts besides the stack's (the peer's worker); stopped with it, also on Ctrl-C. */
    private final Set<AutoCloseable> ownProcesses = ConcurrentHashMap.newKeySet();

    private final CpuMonitor cpu;

    private BenchStack(
            EmbeddedStack stack, StackSettings settings, FleetSimulatorConfig simulator, Path profileDirectory) {
        this.stack = stack;
        this.settings = settings;
        this.simulator = simulator;
        this.profileDirectory = profileDirectory;
        this.trino = new TrinoClient(settings.trinoJdbcUrl());
        this.cpu = new CpuMonitor(ProcStat.system(), cpuSources(), Clock.systemUTC());
    }

    /**
     * Every process of the run, by the name the CPU report gives it: the stack's components (with any process they
     * start), the peer's Connect worker while it runs, and this JVM (load generators and observers) on its own.
     */
    private Map<String, ProcessSource> cpuSources() {
        Map<String, ProcessSource> sources = new LinkedHashMap<>();
        for (Component component : stack.components()) {
            sources.put(component.name(), new ProcessSource(component::processHandle, true));
        }
        sources.put(PEER, new ProcessSource(this::peerProcess, true));
        sources.put(BENCH, new ProcessSource(() -> Optional.of(ProcessHandle.current()), false));
        return sources;
    }

    private Optional<ProcessHandle> peerProcess() {
        return ownProcesses.stream()
                .filter(PeerSink.class::isInstance)
                .map(process -> ((PeerSink) process).processHandle())
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * Configures the stack for the run. It is not started yet: {@link #start()}.
     *
     * @param userConfiguration {@code --config} / {@code FLEET_*} / {@code --set}; the bench's own keys win
     */
    public static BenchStack configure(BenchSettings bench, ConfigSource userConfiguration, FleetHome home) {
        requireNonNull(bench, "bench is null");
        Path profileDirectory = bench.dataDirectory().resolve("profile");
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(StackSettings.FREE_PORTS, "true");
        keys.put(StackSettings.DATA_DIRECTORY, bench.dataDirectory().toString());
        keys.put("pipeline.checkpoint-interval", bench.checkpointInterval().toMillis() + "ms");
        keys.put(FleetSimulatorConfig.VEHICLES, Integer.toString(bench.vehicles()));
        if (bench.profile()) {
            try {
                Files.createDirectories(profileDirectory);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create " + profileDirectory, e);
            }
            // A directory as the file name: each pipeline JVM writes hotspot-pid-<pid>-...jfr there when it exits.
            keys.put(
                    StackSettings.JVM_OPTIONS_PREFIX + FleetStack.PIPELINE,
                    "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + profileDirectory);
        }
        ConfigSource configuration = userConfiguration.withOverrides(keys, "fleet bench");
        StackSettings settings = StackSettings.from(configuration, bench.dataDirectory());
        FleetSimulatorConfig simulator = FleetSimulatorConfig.from(
                configuration.withOverrides(Map.of(FleetSimulatorConfig.MQTT_URI, settings.mqttUri()), "fleet bench"));
        return new BenchStack(FleetStack.create(settings, home), settings, simulator, profileDirectory);
    }

    /** Starts the stack, sampling the CPU of its processes from the start. */
    public void start() {
        if (ProcStat.system().available()) {
            cpu.start();
        } else {
            LOG.warn("No /proc on this machine: the CPU of the components is not measured");
        }
        stack.start();
    }

    /** The CPU of every process of the run, sampled every second since {@link #start()}. */
    public CpuMonitor cpu() {
        return cpu;
    }

    public EmbeddedStack stack() {
        return stack;
    }

    public StackSettings settings() {
        return settings;
    }

    /** The simulator settings the stack's planning API serves routes for; the bench's fleet drives them. */
    public FleetSimulatorConfig simulator() {
        return simulator;
    }

    public TrinoClient trino() {
        return trino;
    }

    public String kafkaBootstrapServers() {
        return settings.kafkaBootstrapServers();
    }

    /** Redis, with the stack's credentials if it has any. */
    public URI redisUri() {
        return URI.create(settings.redisUri());
    }

    public Path profileDirectory() {
        return profileDirectory;
    }

    /** Stops the pipeline; it keeps its last checkpoint, so a start resumes where it stopped. */
    public void stopPipeline() {
        stack.stop(FleetStack.PIPELINE);
    }

    /** Starts the pipeline and waits until its job runs; returns when it was seen running. */
    public Instant startPipeline() {
        stack.start(FleetStack.PIPELINE);
        return Instant.now();
    }

    /**
     * Starts the pipeline unless its process runs: after a phase that failed with the pipeline stopped, the next one
     * needs it; a phase that failed while it drained leaves it running, and starting it again would fail.
     *
     * @return whether it was started
     */
    public boolean ensurePipelineRunning() {
        if (pipelineProcess().isPresent()) {
            return false;
        }
        startPipeline();
        return true;
    }

    /** The pipeline's process while it runs, for its CPU time. */
    public Optional<ProcessHandle> pipelineProcess() {
        return stack.component(FleetStack.PIPELINE).processHandle();
    }

    /** Restarts Trino, so that the next query is the first after a start. */
    public void restartTrino() {
        trino.close();
        stack.restart(FleetStack.TRINO);
    }

    /** Stops the process with the stack (also when the shutdown hook stops it) unless {@link #forget} came first. */
    public <T extends AutoCloseable> T stopsWithStack(T process) {
        ownProcesses.add(requireNonNull(process, "process is null"));
        return process;
    }

    /** The process was stopped by its owner. */
    public void forget(AutoCloseable process) {
        ownProcesses.remove(process);
    }

    @Override
    public void close() {
        cpu.close();
        trino.close();
        for (AutoCloseable process : ownProcesses) {
            try {
                process.close();
            } catch (Exception e) {
                LOG.error("Stopping {} failed; stopping the stack anyway", process, e);
            }
        }
        ownProcesses.clear();
        stack.close();
    }
}
