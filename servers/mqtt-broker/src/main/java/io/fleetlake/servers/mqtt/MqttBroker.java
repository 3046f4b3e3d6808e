package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import com.hivemq.configuration.service.InternalConfigurations;
import com.hivemq.embedded.EmbeddedExtension;
import com.hivemq.embedded.EmbeddedHiveMQ;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MQTT 3.1.1 and 5 broker (HiveMQ Community Edition) running in this JVM.
 *
 * <p>Sessions, subscriptions and queued QoS 1 messages are persisted to files under the data directory (unless
 * {@code mqtt.persistence} is {@code in-memory}), so a persistent session keeps its undelivered messages across a
 * broker restart. Packets above {@code mqtt.max-packet-size} are refused and a client may have at most
 * {@code mqtt.server-receive-maximum} publishes unacknowledged; the broker sends a subscriber up to
 * {@code mqtt.max-inflight-window} messages it has not acknowledged yet. The configuration file is regenerated from the
 * {@link MqttBrokerConfig} at every start.
 *
 * <p>Besides HiveMQ's own metrics, its metric registry holds the broker's accounting of device positions, which {@code
 * fleet verify} and the alert rules reconcile with Kafka: the QoS 1/2 position publishes accepted per listener ({@link
 * PositionAccounting}) and the messages held for the position subscribers ({@link PositionQueue}).
 */
public final class MqttBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MqttBroker.class);
    private static final long START_TIMEOUT_SECONDS = 120;
    private static final long STOP_TIMEOUT_SECONDS = 60;

    private final MqttBrokerConfig config;
    private EmbeddedHiveMQ hiveMq;

    public MqttBroker(MqttBrokerConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    public synchronized void start() {
        if (hiveMq != null) {
            throw new IllegalStateException("MQTT broker on " + address() + " is already started");
        }
        writeConfiguration();
        // Not in config.xml: HiveMQ reads this limit from a static field of its internal configuration when it sends
        // to a subscriber. One broker runs per JVM (MqttBrokerMain), so setting it before the start is safe.
        InternalConfigurations.MAX_INFLIGHT_WINDOW_SIZE_MESSAGES = config.maxInflightWindow();
        // HiveMQ's logging bootstrap reconfigures Logback; this process logs through SLF4J to Log4j 2 instead.
        EmbeddedHiveMQ candidate = EmbeddedHiveMQ.builder()
                .withConfigurationFolder(config.configurationDirectory())
                .withDataFolder(config.persistenceDirectory())
                .withExtensionsFolder(config.extensionsDirectory())
                .withoutLoggingBootstrap()
                .withEmbeddedExtension(EmbeddedExtension.builder()
                        .withId("fleet-position-accounting")
                        .withName("Fleet position accounting")
                        .withVersion("1")
                        .withExtensionMain(new PositionAccounting())
                        .build())
                .build();
        try {
            candidate.start().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            candidate.getMetricRegistry().register(PositionQueue.NAME, PositionQueue.of(candidate));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw closeAfterFailedStart(candidate, e);
        } catch (ExecutionException | TimeoutException e) {
            throw closeAfterFailedStart(candidate, e);
        }
        hiveMq = candidate;
    }

    public int port() {
        return config.port();
    }

    /** {@code host:port} of the MQTT TCP listener. */
    public String address() {
        return config.address();
    }

    @Override
    public synchronized void close() {
        if (hiveMq != null) {
            LOG.info("Stopping MQTT broker on {}", address());
            try {
                hiveMq.stop().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                hiveMq.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while stopping the MQTT broker on " + address(), e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("MQTT broker on " + address() + " did not stop cleanly", e);
            } finally {
                hiveMq = null;
            }
            LOG.info("MQTT broker stopped");
        }
    }

    private void writeConfiguration() {
        try {
            Files.createDirectories(config.configurationDirectory());
            Files.createDirectories(config.persistenceDirectory());
            Files.createDirectories(config.extensionsDirectory());
            Files.writeString(
                    config.configurationDirectory().resolve("config.xml"),
                    HiveMqConfiguration.render(config),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write the HiveMQ configuration under " + MqttBrokerConfig.DATA_DIRECTORY + " "
                            + config.dataDirectory() + ": check the path and its permissions",
                    e);
        }
    }

    private IllegalStateException closeAfterFailedStart(EmbeddedHiveMQ candidate, Exception cause) {
        Throwable reason = cause instanceof ExecutionException && cause.getCause() != null ? cause.getCause() : cause;
        // HiveMQ logs why it stopped and then fails with an exception that often has no message.
        String description = reason.getMessage() != null
                ? reason.getMessage()
                : reason.getClass().getSimpleName() + " (see the HiveMQ errors logged before)";
        IllegalStateException failure =
                new IllegalStateException("MQTT broker failed to start on " + address() + ": " + description, reason);
        try {
            candidate.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.addSuppressed(e);
        } catch (ExecutionException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }
}
