package io.fleetlake.stack.it;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.operations.verify.FixKey;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.stack.StackSettings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several MQTT clients publishing a known ledger of positions, each on a thread of its own, one fix per vehicle and
 * second, until stopped: QoS 1, at most 10 messages in flight per client (well within the broker's Receive Maximum),
 * reconnecting and resending through broker restarts. Every publish and its acknowledgement is recorded, so that a test
 * can demand that every acknowledged position is stored exactly once.
 */
final class LedgerPublishers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerPublishers.class);
    /** A small in-flight window per client, like a device's (HiveMQ CE's own default Receive Maximum). */
    private static final int RECEIVE_MAXIMUM = 10;

    private final List<MqttPositionPublisher> clients = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Map<FixKey, CompletableFuture<Void>> ledger = new ConcurrentHashMap<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicLong published = new AtomicLong();
    private final String prefix;
    private final int vehiclesPerClient;
    private final Instant firstEventTime;

    private LedgerPublishers(String prefix, int vehiclesPerClient, Instant firstEventTime) {
        this.prefix = prefix;
        this.vehiclesPerClient = vehiclesPerClient;
        this.firstEventTime = firstEventTime;
    }

    /** Connects {@code clients} clients, each publishing for {@code vehiclesPerClient} vehicles of its own. */
    static LedgerPublishers start(StackSettings settings, String prefix, int clientCount, int vehiclesPerClient) {
        // Event times start in the past and advance one second per round, so they never run ahead of the clock
        // (the pipeline rejects positions from the future) even when publishing catches up after an outage.
        LedgerPublishers publishers = new LedgerPublishers(
                prefix,
                vehiclesPerClient,
                Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS));
        // One gateway principal for all the clients: client ids <gateway>-<n> belong to it.
        String gateway = prefix.toLowerCase() + "client";
        TestGateways.Credentials credentials = TestGateways.gateway(settings, gateway);
        for (int index = 0; index < clientCount; index++) {
            FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(Map.of(
                    FleetSimulatorConfig.MQTT_URI,
                    settings.mqttUri(),
                    FleetSimulatorConfig.MQTT_USERNAME,
                    credentials.username(),
                    FleetSimulatorConfig.MQTT_PASSWORD,
                    credentials.password(),
                    FleetSimulatorConfig.CLIENT_ID,
                    gateway + "-" + index,
                    FleetSimulatorConfig.MAX_IN_FLIGHT,
                    Integer.toString(RECEIVE_MAXIMUM),
                    FleetSimulatorConfig.CLOSE_TIMEOUT,
                    "60s")));
            MqttPositionPublisher client = new MqttPositionPublisher(config);
            client.start();
            publishers.clients.add(client);
        }
        for (int index = 0; index < clientCount; index++) {
            int client = index;
            Thread thread = new Thread(() -> publishers.publishLoop(client), "ledger-publisher-" + index);
            thread.setDaemon(true);
            publishers.threads.add(thread);
            thread.start();
        }
        return publishers;
    }

    private void publishLoop(int client) {
        MqttPositionPublisher publisher = clients.get(client);
        long nextRound = System.nanoTime();
        try {
            for (int round = 0; !stopping.get(); round++) {
                for (int vehicle = 0; vehicle < vehiclesPerClient; vehicle++) {
                    Position position = position(client, vehicle, round);
                    PayloadFormat format = (round + vehicle) % 2 == 0 ? PayloadFormat.AVRO : PayloadFormat.JSON;
                    CompletableFuture<Void> acknowledged = publisher.publish(position, format);
                    ledger.put(FixKey.of(position.vehicleId(), position.eventTime()), acknowledged);
                    published.incrementAndGet();
                }
                // One round per second; after an outage the rounds that fell behind are published at once.
                nextRound += TimeUnit.SECONDS.toNanos(1);
                long wait = nextRound - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("Publisher {} stopped publishing", client, e);
            throw e;
        }
    }

    private Position position(int client, int vehicle, int round) {
        // Vehicles drive north through Castilla at about 40 km/h: inside the operating region, plausible jumps.
        return Position.of(
                vehicleId(client, vehicle),
                firstEventTime.plusSeconds(round),
                40.0 + client * 0.1 + vehicle * 0.01 + round * 0.0001,
                -4.0 + vehicle * 0.01,
                40.0,
                0.0);
    }

    String vehicleId(int client, int vehicle) {
        return String.format("%s%02d-%02d", prefix, client, vehicle);
    }

    /** Positions published so far (a publish waiting for room in the window is not counted yet). */
    long published() {
        return published.get();
    }

    /** Stops publishing and waits for the outstanding acknowledgements. */
    void stop(Duration timeout) throws InterruptedException {
        stopping.set(true);
        for (Thread thread : threads) {
            thread.join(timeout.toMillis());
        }
        for (MqttPositionPublisher client : clients) {
            if (!client.awaitAcknowledgements(timeout)) {
                LOG.warn("A publisher still had unacknowledged messages after {}", timeout);
            }
        }
    }

    /** Keys whose publish the broker acknowledged. */
    Set<FixKey> acknowledged() {
        Set<FixKey> keys = ConcurrentHashMap.newKeySet();
        ledger.forEach((key, future) -> {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                keys.add(key);
            }
        });
        return keys;
    }

    /** Keys published but not acknowledged (refused, or unanswered when the clients closed). */
    long unacknowledged() {
        return ledger.size() - acknowledged().size();
    }

    @Override
    public void close() {
        stopping.set(true);
        threads.forEach(Thread::interrupt);
        clients.forEach(MqttPositionPublisher::close);
    }
}
