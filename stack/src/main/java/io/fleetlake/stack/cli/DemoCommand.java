package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.operations.inspect.TrinoInspector.Snapshot;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.simulator.FleetPublisher;
import io.fleetlake.simulator.FleetSimulator;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.SimulationSummary;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackMqttIdentity;
import io.fleetlake.stack.process.FleetHome;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Starts the stack, drives a simulated fleet through it, waits until the pipeline has committed what it received, and
 * prints what every component holds, including a time-travel query against an earlier snapshot.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Run the whole pipeline locally with a simulated fleet, then print a report.")
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            description = "How long the fleet drives, e.g. 60s or 5m (default: ${DEFAULT-VALUE}).",
            defaultValue = "60s")
    private String duration;

    @Option(
            names = "--vehicles",
            paramLabel = "N",
            description = "Vehicles in the simulated fleet (default: ${DEFAULT-VALUE}).",
            defaultValue = "340")
    private int vehicles;

    @Option(names = "--keep-running", description = "Leave the stack running after the report, until Ctrl-C.")
    private boolean keepRunning;

    @Override
    public Integer call() throws InterruptedException, SQLException {
        FleetHome home = options.home();
        // The fleet size reaches the planning API process through the stack's configuration, so that it serves the
        // routes of exactly the vehicles the simulator drives.
        ConfigSource configuration = options.configuration()
                .withOverrides(
                        Map.of(
                                FleetSimulatorConfig.DURATION,
                                duration,
                                FleetSimulatorConfig.VEHICLES,
                                Integer.toString(vehicles)),
                        "demo options");
        StackSettings settings = options.settings(configuration, home);
        EmbeddedStack stack = FleetStack.create(settings, home);
        // The simulator publishes as the stack's gateway principal, a few vehicles as their own devices: the
        // secrets come from the data folder, in this process, never through a command line or the log.
        StackMqttIdentity identity = StackMqttIdentity.of(settings);
        FleetSimulatorConfig simulatorConfig = FleetSimulatorConfig.from(configuration.withOverrides(
                Map.of(
                        FleetSimulatorConfig.MQTT_URI,
                        settings.mqttUri(),
                        FleetSimulatorConfig.CLIENT_ID,
                        StackMqttIdentity.SIMULATOR,
                        FleetSimulatorConfig.MQTT_USERNAME,
                        StackMqttIdentity.SIMULATOR,
                        FleetSimulatorConfig.MQTT_PASSWORD,
                        identity.secret(StackMqttIdentity.SIMULATOR).orElseThrow(),
                        FleetSimulatorConfig.DEVICE_CREDENTIALS,
                        identity.simulatorDeviceCredentials().toString()),
                "demo options"));
        StackRunner.startWithShutdownHook(stack, settings);
        StackRunner.printEndpoints(stack, settings);

        System.out.printf(
                "Driving %d vehicles for %s (about %.0f positions/s over MQTT QoS 1) ...%n",
                simulatorConfig.vehicles(), simulatorConfig.duration(), simulatorConfig.effectiveRate());
        SimulationSummary summary;
        try (FleetPublisher publisher = FleetPublisher.of(simulatorConfig)) {
            publisher.start();
            try (FleetSimulator simulator = new FleetSimulator(simulatorConfig, publisher)) {
                summary = simulator.run();
            }
        }

        // Trino is optional for the stack, which runs without it while it is slow; the report reads through it.
        stack.awaitHealthy(FleetStack.TRINO, settings.startTimeout());
        TrinoInspector trino = new TrinoInspector(settings.trino(TrinoUser.MONITOR));
        Duration checkpointInterval = configuration.duration("pipeline.checkpoint-interval", Duration.ofSeconds(10));
        long rows = new CommitWatcher(trino, checkpointInterval).awaitSettled(Duration.ofMinutes(3));
        KafkaInspector kafka = new KafkaInspector(settings.kafkaBootstrapServers());
        long rawRecords = kafka.count(Topics.RAW_POSITIONS);
        long deadLetters = kafka.count(Topics.DLQ_POSITIONS);
        long vehiclesInRedis = new RedisInspector(URI.create(settings.redisUri(RedisRole.MONITOR))).vehicleCount();
        List<Snapshot> snapshots = trino.snapshots(Tables.POSITIONS);

        System.out.println();
        System.out.println("Fleet demo report");
        System.out.println("-----------------");
        line("Positions published over MQTT", "%,d (acknowledged %,d)", summary.published(), summary.acknowledged());
        line("Records in Kafka " + Topics.RAW_POSITIONS, "%,d", rawRecords);
        line("Dead-lettered to " + Topics.DLQ_POSITIONS, "%,d", deadLetters);
        line("Rows in Iceberg " + Tables.qualified(Tables.POSITIONS), "%,d (counted through Trino)", rows);
        line("Vehicles in Redis", "%,d", vehiclesInRedis);
        line("Iceberg snapshots", "%,d", snapshots.size());
        printTimeTravel(trino, snapshots, rows);
        System.out.println();

        if (keepRunning) {
            System.out.println("The stack keeps running. Press Ctrl-C to stop it.");
            new CountDownLatch(1).await();
        }
        return rows > 0 ? 0 : 1;
    }

    private static void line(String label, String format, Object... values) {
        System.out.printf("%-40s %s%n", label, String.format(format, values));
    }

    private static void printTimeTravel(TrinoInspector trino, List<Snapshot> snapshots, long currentRows)
            throws SQLException {
        List<Snapshot> earlier = snapshots.stream()
                .filter(snapshot -> snapshot.totalRecords() > 0 && snapshot.totalRecords() < currentRows)
                .toList();
        if (earlier.isEmpty()) {
            line("Time travel", "no earlier snapshot with fewer rows yet (the run was shorter than two checkpoints)");
            return;
        }
        Snapshot snapshot = earlier.get(earlier.size() / 2);
        long rowsThen = trino.rowCountAtSnapshot(Tables.POSITIONS, snapshot.snapshotId());
        line(
                "Time travel",
                "FOR VERSION AS OF %d (committed %s): %,d rows; now %,d rows",
                snapshot.snapshotId(),
                snapshot.committedAt(),
                rowsThen,
                currentRows);
    }
}
