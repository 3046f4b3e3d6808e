package io.fleetlake.simulator;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Runs the fleet simulator against an MQTT broker and prints a summary. Exit status: 0 when every message was
 * acknowledged, 1 when the configuration is invalid or the broker cannot be reached, 2 when messages failed or stayed
 * unacknowledged.
 */
@Command(
        name = "fleet-simulator",
        mixinStandardHelpOptions = true,
        description =
                "Publishes the GPS fixes of a seeded vehicle fleet to an MQTT broker (QoS 1) and prints a summary.",
        footer = {
            "",
            "Keys (defaults): simulator.vehicles (340), simulator.seed (42), simulator.fix-interval (5s),",
            "simulator.rate (0 = vehicles / fix interval), simulator.duration (60s, 0s = until stopped),",
            "simulator.mqtt-uri (tcp://127.0.0.1:1883), simulator.mqtt-username, simulator.mqtt-password,",
            "simulator.client-id (fleet-simulator), simulator.json-share (0.1), simulator.max-in-flight (1000),",
            "simulator.connect-timeout (10s), simulator.close-timeout (30s), simulator.device-credentials (none:",
            "a file of vehicle=secret lines; those vehicles publish on device connections of their own).",
            "Fleet patterns (a rate of 0 disables one): simulator.v2-share (0.3), simulator.delivery-stop-duration",
            "(3m), simulator.deviation-rate (0.2 per vehicle-hour), simulator.glitch-rate (0.5),",
            "simulator.garage-rate (0.1), simulator.garage-duration (10m), simulator.garage-fix-interval (1s).",
            "Environment: FLEET_SIMULATOR_VEHICLES and so on."
        })
public final class FleetSimulatorMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(FleetSimulatorMain.class);

    static final int EXIT_OK = 0;
    static final int EXIT_STARTUP_FAILED = 1;
    static final int EXIT_MESSAGES_LOST = 2;

    @Mixin
    private ConfigOptions configOptions;

    @Spec
    private CommandSpec spec;

    public static void main(String[] arguments) {
        // Exits explicitly: the MQTT client's threads would otherwise keep the JVM alive after a failure.
        System.exit(new CommandLine(new FleetSimulatorMain()).execute(arguments));
    }

    @Override
    public Integer call() {
        FleetSimulatorConfig config;
        try {
            config = FleetSimulatorConfig.from(configOptions.load());
        } catch (ConfigException e) {
            LOG.error("Fleet simulator cannot start: {}", e.getMessage());
            return EXIT_STARTUP_FAILED;
        }
        LOG.info("Starting fleet simulator with {}", config);
        FleetPublisher publisher;
        try {
            publisher = FleetPublisher.of(config);
        } catch (ConfigException e) {
            LOG.error("Fleet simulator cannot start: {}", e.getMessage());
            return EXIT_STARTUP_FAILED;
        }
        try {
            publisher.start();
        } catch (BrokerUnavailableException e) {
            LOG.error("Fleet simulator cannot start: {}", e.getMessage());
            LOG.debug("Connection failure", e);
            return EXIT_STARTUP_FAILED;
        }
        LOG.info(
                "Fleet simulator ready on {}:{}: {} vehicles, {} messages/s",
                config.mqttHost(),
                config.mqttPort(),
                config.vehicles(),
                String.format(Locale.ROOT, "%.1f", config.effectiveRate()));

        FleetSimulator simulator = new FleetSimulator(config, publisher);
        CountDownLatch finished = new CountDownLatch(1);
        Thread shutdownHook = new Thread(
                () -> {
                    simulator.stop();
                    awaitQuietly(finished, config);
                },
                "fleet-simulator-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            SimulationSummary summary = simulator.run();
            publisher.close();
            print(summary);
            return summary.complete() ? EXIT_OK : EXIT_MESSAGES_LOST;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.error("Fleet simulator was interrupted");
            publisher.close();
            return EXIT_MESSAGES_LOST;
        } finally {
            finished.countDown();
        }
    }

    private void print(SimulationSummary summary) {
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "vehicles:     %d%n", summary.vehicles());
        out.printf(Locale.ROOT, "duration:     %.1f s%n", summary.duration().toMillis() / 1000.0);
        out.printf(Locale.ROOT, "published:    %d%n", summary.published());
        out.printf(Locale.ROOT, "acknowledged: %d%n", summary.acknowledged());
        out.printf(Locale.ROOT, "failed:       %d%n", summary.failed());
        out.printf(Locale.ROOT, "unconfirmed:  %d%n", summary.unconfirmed());
        out.printf(Locale.ROOT, "rate:         %.1f messages/s%n", summary.publishRate());
        out.flush();
    }

    private static void awaitQuietly(CountDownLatch finished, FleetSimulatorConfig config) {
        try {
            // The main thread drains acknowledgements (close timeout) twice at most: once in run, once in close.
            long waitSeconds = 2 * config.closeTimeout().toSeconds() + 10;
            if (!finished.await(waitSeconds, TimeUnit.SECONDS)) {
                LOG.warn("Fleet simulator did not shut down within {} s", waitSeconds);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while waiting for the fleet simulator to shut down");
        }
    }
}
