package io.fleetlake.ingest.it;

import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.Secrets;
import io.fleetlake.ingest.ConnectWorkerConfig;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.TreeMap;

/**
 * The secrets a worker under test needs, kept as the stack keeps them: the ingest principal's MQTT secret in an
 * owner-only file that the connector reads through Connect's file config provider, and generated passwords of the REST
 * API's two principals.
 */
final class WorkerSecrets {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String ingestSecret;
    private final Path mqttSecrets;
    private final String adminPassword = Secrets.generate(RANDOM);
    private final String monitorPassword = Secrets.generate(RANDOM);

    /** Writes {@code ingestSecret} to {@code <directory>/secrets/mqtt.properties}, owner-only. */
    WorkerSecrets(Path directory, String ingestSecret) {
        this.ingestSecret = ingestSecret;
        this.mqttSecrets = directory.resolve("secrets").resolve("mqtt.properties");
        new SecretFile(mqttSecrets, "MQTT secrets of the worker under test")
                .store(Map.of(BrokerIdentity.INGEST, ingestSecret));
    }

    /** The keys a worker configuration needs for its MQTT login and its REST API. */
    Map<String, String> workerKeys() {
        return Map.of(
                "mqtt.username",
                BrokerIdentity.INGEST,
                "mqtt.password",
                passwordReference(),
                ConnectWorkerConfig.REST_ADMIN_PASSWORD,
                adminPassword,
                ConnectWorkerConfig.REST_MONITOR_PASSWORD,
                monitorPassword);
    }

    /** {@code settings} with {@link #workerKeys()}. */
    Map<String, String> plus(Map<String, String> settings) {
        Map<String, String> all = new TreeMap<>(settings);
        all.putAll(workerKeys());
        return all;
    }

    /** What the connector's {@code mqtt.password} is: {@code ${file:<path>:fleet-ingest}}. */
    String passwordReference() {
        return ConnectWorkerConfig.fileReference(mqttSecrets, BrokerIdentity.INGEST);
    }

    String ingestSecret() {
        return ingestSecret;
    }

    String adminPassword() {
        return adminPassword;
    }

    String monitorPassword() {
        return monitorPassword;
    }
}
