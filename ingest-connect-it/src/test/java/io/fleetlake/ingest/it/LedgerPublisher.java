package io.fleetlake.ingest.it;

import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * MQTT 5 clients publishing QoS 1 messages whose payloads are unique ids, and the ledger of the ids the broker
 * acknowledged: what the ingest must deliver to Kafka. The HiveMQ client keeps each client within the broker's receive
 * maximum.
 */
final class LedgerPublisher implements AutoCloseable {
    private final List<Mqtt5AsyncClient> clients = new ArrayList<>();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<String> failed = ConcurrentHashMap.newKeySet();
    private final List<CompletableFuture<?>> sent = new ArrayList<>();

    /** Connects {@code clientCount} clients {@code <clientIdPrefix>-<n>}, logged in as the gateway {@code clientIdPrefix}. */
    LedgerPublisher(String mqttAddress, String clientIdPrefix, int clientCount, BrokerIdentity identity) {
        String host = mqttAddress.substring(0, mqttAddress.lastIndexOf(':'));
        int port = Integer.parseInt(mqttAddress.substring(mqttAddress.lastIndexOf(':') + 1));
        byte[] secret = identity.gateway(clientIdPrefix).getBytes(StandardCharsets.UTF_8);
        for (int index = 0; index < clientCount; index++) {
            Mqtt5AsyncClient client = MqttClient.builder()
                    .useMqttVersion5()
                    .identifier(clientIdPrefix + "-" + index)
                    .serverHost(host)
                    .serverPort(port)
                    .simpleAuth()
                    .username(clientIdPrefix)
                    .password(secret)
                    .applySimpleAuth()
                    .automaticReconnectWithDefaultConfig()
                    .buildAsync();
            // The broker reads a changed registry within a second; until then it refuses the new gateway.
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> client.connectWith()
                                    .cleanStart(true)
                                    .sessionExpiryInterval(600)
                                    .send()
                                    .join()
                            != null);
            clients.add(client);
        }
    }

    /** Publishes {@code id} as the payload of a message of vehicle {@code vehicle}, on client {@code client}. */
    synchronized CompletableFuture<?> publish(int client, String vehicle, String id) {
        return publish(client, "fleet/" + vehicle + "/position", id.getBytes(StandardCharsets.UTF_8), id);
    }

    /** Publishes any payload; {@code id} names it in the ledger. */
    synchronized CompletableFuture<?> publish(int client, String topic, byte[] payload, String id) {
        CompletableFuture<?> result = clients.get(client)
                .publishWith()
                .topic(topic)
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(payload)
                .send()
                .whenComplete((publishResult, failure) -> {
                    if (failure == null && publishResult.getError().isEmpty()) {
                        acknowledged.add(id);
                    } else {
                        failed.add(id);
                    }
                });
        sent.add(result);
        return result;
    }

    /** Waits until the broker answered every publish. */
    void awaitAll(Duration timeout) throws Exception {
        List<CompletableFuture<?>> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(sent);
        }
        CompletableFuture.allOf(snapshot.toArray(CompletableFuture[]::new))
                .handle((ignored, failure) -> null)
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ids the broker acknowledged (PUBACK): each must reach Kafka. */
    Set<String> acknowledged() {
        return Set.copyOf(acknowledged);
    }

    Set<String> failed() {
        return Set.copyOf(failed);
    }

    @Override
    public void close() {
        for (Mqtt5AsyncClient client : clients) {
            client.disconnect().handle((ignored, failure) -> null).join();
        }
    }
}
