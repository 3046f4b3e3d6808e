package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The simulated fleet's MQTT connections, as a real fleet has them: most vehicles are relayed by a gateway (one
 * connection, {@code simulator.client-id}, logged in as the gateway principal) and the vehicles named in {@code
 * simulator.device-credentials} publish on connections of their own, each logged in as its device principal. Each
 * position goes to its vehicle's device connection if it has one, otherwise to the gateway's.
 */
public final class FleetPublisher implements PositionPublisher, AutoCloseable {
    private final MqttPositionPublisher gateway;
    private final Map<String, MqttPositionPublisher> devices;

    private FleetPublisher(MqttPositionPublisher gateway, Map<String, MqttPositionPublisher> devices) {
        this.gateway = gateway;
        this.devices = devices;
    }

    /** The connections of {@code config}; none is opened before {@link #start()}. */
    public static FleetPublisher of(FleetSimulatorConfig config) {
        requireNonNull(config, "config is null");
        Map<String, MqttPositionPublisher> devices = new TreeMap<>();
        for (Map.Entry<String, String> device : config.deviceCredentials()
                .map(FleetPublisher::read)
                .orElse(Map.of())
                .entrySet()) {
            devices.put(
                    device.getKey(), new MqttPositionPublisher(config.asDevice(device.getKey(), device.getValue())));
        }
        return new FleetPublisher(new MqttPositionPublisher(config), devices);
    }

    /** Connects the gateway and then every device. */
    public void start() {
        gateway.start();
        for (MqttPositionPublisher device : devices.values()) {
            device.start();
        }
    }

    /** The vehicles that publish on device connections of their own. */
    public List<String> deviceVehicles() {
        return List.copyOf(devices.keySet());
    }

    @Override
    public CompletableFuture<Void> publish(Position position, PayloadFormat format, int schemaVersion)
            throws InterruptedException {
        return devices.getOrDefault(position.vehicleId(), gateway).publish(position, format, schemaVersion);
    }

    @Override
    public PublishCounts counts() {
        long published = 0;
        long acknowledged = 0;
        long failed = 0;
        for (MqttPositionPublisher publisher : all()) {
            PublishCounts counts = publisher.counts();
            published += counts.published();
            acknowledged += counts.acknowledged();
            failed += counts.failed();
        }
        return new PublishCounts(published, acknowledged, failed);
    }

    @Override
    public boolean awaitAcknowledgements(Duration timeout) throws InterruptedException {
        boolean all = true;
        for (MqttPositionPublisher publisher : all()) {
            all &= publisher.awaitAcknowledgements(timeout);
        }
        return all;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (MqttPositionPublisher publisher : all()) {
            try {
                publisher.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private List<MqttPositionPublisher> all() {
        List<MqttPositionPublisher> all = new ArrayList<>(devices.values());
        all.add(gateway);
        return all;
    }

    /** {@code vehicle=secret} lines (Java properties). */
    static Map<String, String> read(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException(FleetSimulatorConfig.DEVICE_CREDENTIALS + " = " + file + " cannot be read ("
                    + e.getMessage() + "): a file of vehicle=secret lines");
        }
        Map<String, String> credentials = new TreeMap<>();
        properties.forEach((vehicle, secret) -> credentials.put((String) vehicle, (String) secret));
        return credentials;
    }
}
