package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.catalog.CatalogCredential;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Where a health check reads from: the same servers for {@code fleet status} (built from the stack's settings) and for
 * fleet-exporter (from its {@code exporter.*} keys).
 *
 * @param kafkaBootstrapServers the Kafka cluster
 * @param kafkaCredentials the SASL/SCRAM login of every Kafka client of the check (the monitor's in the compose
 *     deployment); empty for a broker without authentication, such as the embedded stack's
 * @param consumerGroups the consumer groups whose lag is reported (the pipeline's)
 * @param redisUri Redis, with credentials when it needs them
 * @param catalogUri the Iceberg REST catalog
 * @param catalogCredential a reader's client credentials for the catalog; empty without authentication
 * @param connectUri the Kafka Connect worker's REST API
 * @param connectCredentials how to log in to it: its read-only monitor principal; empty for a worker that asks for none
 * @param connectorName the MQTT source connector
 * @param flinkRest the pipeline's Flink REST API, with its client certificate when it requires one
 * @param maintenanceMetricsUri the table maintenance service's metrics, if it runs
 * @param mqttMetricsUri the MQTT broker's metrics ({@code fleet_mqtt_publishes_received_total}), if they are served
 * @param probes one up/down probe per component, in the order they are reported
 */
public record HealthSources(
        String kafkaBootstrapServers,
        Optional<KafkaSaslCredentials> kafkaCredentials,
        List<String> consumerGroups,
        String redisUri,
        String catalogUri,
        Optional<CatalogCredential> catalogCredential,
        String connectUri,
        Optional<BasicCredentials> connectCredentials,
        String connectorName,
        FlinkRestClient flinkRest,
        Optional<URI> maintenanceMetricsUri,
        Optional<URI> mqttMetricsUri,
        Map<String, BooleanSupplier> probes) {
    public HealthSources {
        requireNonNull(kafkaBootstrapServers, "kafkaBootstrapServers is null");
        requireNonNull(kafkaCredentials, "kafkaCredentials is null");
        consumerGroups = List.copyOf(requireNonNull(consumerGroups, "consumerGroups is null"));
        requireNonNull(redisUri, "redisUri is null");
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(catalogCredential, "catalogCredential is null");
        requireNonNull(connectUri, "connectUri is null");
        requireNonNull(connectCredentials, "connectCredentials is null");
        requireNonNull(connectorName, "connectorName is null");
        requireNonNull(flinkRest, "flinkRest is null");
        requireNonNull(maintenanceMetricsUri, "maintenanceMetricsUri is null");
        requireNonNull(mqttMetricsUri, "mqttMetricsUri is null");
        probes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(probes, "probes is null")));
    }

    /** The security settings of every Kafka client that reads these sources: the login, or none. */
    public Map<String, String> kafkaClientSecurity() {
        return KafkaSaslCredentials.clientProperties(kafkaCredentials);
    }
}
