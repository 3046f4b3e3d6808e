package io.fleetlake.servers.kafka;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Formats the KRaft storage of a fresh data directory, and leaves a formatted one (and its records) alone. */
final class KafkaStorage {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaStorage.class);

    private KafkaStorage() {}

    /**
     * Formats the log directory unless it is formatted already.
     *
     * @return true when the directory was formatted now, false when it held a formatted storage
     * @throws IllegalStateException when the directory belongs to another cluster or cannot be formatted
     */
    static boolean formatIfNeeded(KafkaBrokerConfig config) {
        requireNonNull(config, "config is null");
        String directory = config.logDirectory().toString();
        Optional<String> existingClusterId = existingClusterId(config);
        if (existingClusterId.isPresent()) {
            if (!existingClusterId.get().equals(config.clusterId())) {
                throw new IllegalStateException("Kafka storage " + directory + " belongs to cluster "
                        + existingClusterId.get() + ", not to the configured " + KafkaBrokerConfig.CLUSTER_ID + " "
                        + config.clusterId() + ": set " + KafkaBrokerConfig.CLUSTER_ID + " to "
                        + existingClusterId.get() + " to keep the data, or point " + KafkaBrokerConfig.DATA_DIRECTORY
                        + " at an empty directory");
            }
            LOG.info(
                    "Kafka storage {} is already formatted for cluster {}; keeping its data",
                    directory,
                    config.clusterId());
            return false;
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream printStream = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(printStream)
                    .setNodeId(config.nodeId())
                    .setClusterId(config.clusterId())
                    .setControllerListenerName(KafkaBrokerProperties.CONTROLLER_LISTENER)
                    .addDirectory(directory)
                    .setMetadataLogDirectory(directory)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot format Kafka storage " + directory + ": " + e.getMessage(), e);
        }
        LOG.info(
                "Formatted Kafka storage {} for cluster {}: {}",
                directory,
                config.clusterId(),
                output.toString(StandardCharsets.UTF_8).strip());
        return true;
    }

    private static Optional<String> existingClusterId(KafkaBrokerConfig config) {
        try {
            Files.createDirectories(config.logDirectory());
            MetaPropertiesEnsemble ensemble = new MetaPropertiesEnsemble.Loader()
                    .addLogDirs(List.of(config.logDirectory().toString()))
                    .load();
            if (!ensemble.errorLogDirs().isEmpty()) {
                throw new IllegalStateException("Cannot read the Kafka storage " + ensemble.errorLogDirs()
                        + ": check that the directory is readable and its meta.properties is intact");
            }
            return ensemble.clusterId();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the Kafka storage " + config.logDirectory(), e);
        }
    }
}
