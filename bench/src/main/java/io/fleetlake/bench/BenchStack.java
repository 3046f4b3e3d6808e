package io.fleetlake.bench;

import static java.util.Objects.requireNonNull;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import io.fleetlake.bench.load.MqttLogin;
import io.fleetlake.bench.observe.CpuMonitor;
import io.fleetlake.bench.observe.CpuMonitor.ProcessSource;
import io.fleetlake.bench.observe.ProcStat;
import io.fleetlake.bench.observe.TrinoPollingConnection;
import io.fleetlake.bench.peer.PeerSink;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.identity.StackMqttIdentity;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
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
    private final TrinoPollingConnection trino;
    /** Processes the bench starts besides the stack's (the peer's worker); stopped with it, also on Ctrl-C. */
    private final Set<AutoCloseable> ownProcesses = ConcurrentHashMap.newKeySet();

    private final CpuMonitor cpu;

    private BenchStack(
            EmbeddedStack stack, StackSettings settings, FleetSimulatorConfig simulator, Path profileDirectory) {
        this.stack = stack;
        this.settings = settings;
        this.simulator = simulator;
        this.profileDirectory = profileDirectory;
        this.trino = new TrinoPollingConnection(settings.trino(TrinoUser.MONITOR));
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

    public TrinoPollingConnection trino() {
        return trino;
    }

    public String kafkaBootstrapServers() {
        return settings.kafkaBootstrapServers();
    }

    /** Redis, with the stack's credentials if it has any. */
    public URI redisUri() {
        return URI.create(settings.redisUri(RedisRole.MONITOR));
    }

    public Path profileDirectory() {
        return profileDirectory;
    }

    /** The stack's bench gateway ({@value StackMqttIdentity#BENCH}), created with the data folder; its clients are
     * named {@code fleet-bench-...}. */
    public MqttLogin gatewayLogin() {
        return new MqttLogin(
                StackMqttIdentity.BENCH,
                StackMqttIdentity.of(settings)
                        .secret(StackMqttIdentity.BENCH)
                        .orElseThrow(() -> new IllegalStateException(
                                "The stack has no secret for " + StackMqttIdentity.BENCH + ": start the stack first")));
    }

    /**
     * Device principals for {@code vehicleIds} in the stack's registry, added (or given new secrets when an earlier run
     * on the same data folder added them) in one change; their secrets stay in this process. Returns once the broker
     * admits them (it reloads the registry within a second).
     */
    public List<MqttLogin> deviceLogins(List<String> vehicleIds) {
        PrincipalAdministration administration = StackMqttIdentity.of(settings).administration();
        Map<String, String> secrets = new LinkedHashMap<>();
        List<String> fresh = new ArrayList<>();
        for (String vehicle : vehicleIds) {
            if (administration.registry().principal(vehicle).isPresent()) {
                secrets.put(vehicle, administration.rotate(vehicle).secret());
            } else {
                fresh.add(vehicle);
            }
        }
        for (IssuedSecret issued : administration.addDevices(fresh, done -> {})) {
            secrets.put(issued.name(), issued.secret());
        }
        List<MqttLogin> logins = vehicleIds.stream()
                .map(vehicle -> new MqttLogin(vehicle, secrets.get(vehicle)))
                .toList();
        if (!logins.isEmpty()) {
            awaitAdmitted(logins.get(logins.size() - 1));
        }
        return logins;
    }

    private void awaitAdmitted(MqttLogin login) {
        URI mqtt = URI.create(settings.mqttUri());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            Mqtt5BlockingClient probe = Mqtt5Client.builder()
                    .identifier(login.username())
                    .serverHost(mqtt.getHost())
                    .serverPort(mqtt.getPort())
                    .simpleAuth()
                    .username(login.username())
                    .password(login.password().getBytes(StandardCharsets.UTF_8))
                    .applySimpleAuth()
                    .buildBlocking();
            try {
                probe.connectWith().cleanStart(true).sessionExpiryInterval(0).send();
                probe.disconnect();
                return;
            } catch (RuntimeException refused) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "The MQTT broker did not admit the bench's devices within 30 s: " + refused, refused);
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        }
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
