package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.stats.RatePacer;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.simulator.PublishCounts;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * MQTT clients publishing like the fleet's devices (QoS 1, each device's payload format), each with a client id of its
 * own; closing waits for their acknowledgements. Besides single clients ({@link #connect(FleetSimulatorConfig, String,
 * int)}), it offers the mix a real fleet sends ({@link #publish(Mix, List, FleetFeed, DeviceClock)}): many devices, each
 * on its own connection publishing a fix every few seconds, and a few gateways publishing fast for the other vehicles
 * over one connection each, within the broker's receive maximum (the MQTT client keeps no more in flight).
 */
public final class MqttPublishers implements AutoCloseable {
    /** Messages a device client may have unacknowledged; a device sends one every few seconds. */
    static final int DEVICE_MAX_IN_FLIGHT = 10;

    /**
     * Messages a gateway client may have unacknowledged in this bench client; the MQTT client sends at most the broker's
     * receive maximum of them at once and keeps the rest.
     */
    static final int GATEWAY_MAX_IN_FLIGHT = 2_000;

    private static final int CONNECT_THREADS = 8;

    private final List<MqttPositionPublisher> publishers;

    private MqttPublishers(List<MqttPositionPublisher> publishers) {
        this.publishers = List.copyOf(publishers);
    }

    /**
     * Connects {@code count} clients named {@code <clientIdPrefix>-<n>}, each with up to 2,000 messages in flight, all
     * logged in as {@code gateway} (whose name {@code clientIdPrefix} must start with: the broker admits a client id
     * only for the principal that owns it).
     *
     * @param simulator the stack's simulator settings (broker address)
     */
    public static MqttPublishers connect(
            FleetSimulatorConfig simulator, String clientIdPrefix, int count, MqttLogin gateway) {
        List<Client> clients = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            clients.add(new Client(clientIdPrefix + "-" + index, gateway, GATEWAY_MAX_IN_FLIGHT));
        }
        return connect(simulator, clients);
    }

    /**
     * Connects the clients of {@code mix}, eight connections at a time: first its devices, each logged in as the
     * device of its vehicle (client id = user name = vehicle id, {@code devices.get(n)} for device {@code n}, which
     * publishes the fixes of {@code vehicles.get(n)} in {@link #publish}), then its gateways ({@code
     * <clientIdPrefix>-gateway-<n>}), logged in as {@code gateway}.
     */
    public static MqttPublishers connect(
            FleetSimulatorConfig simulator,
            String clientIdPrefix,
            Mix mix,
            MqttLogin gateway,
            List<MqttLogin> devices) {
        requireNonNull(mix, "mix is null");
        requireNonNull(devices, "devices is null");
        if (devices.size() != mix.devices()) {
            throw new IllegalArgumentException(
                    "The mix has " + mix.devices() + " devices, " + devices.size() + " device logins were given");
        }
        List<Client> clients = new ArrayList<>();
        for (MqttLogin device : devices) {
            clients.add(new Client(device.username(), device, DEVICE_MAX_IN_FLIGHT));
        }
        for (int index = 0; index < mix.gateways(); index++) {
            clients.add(new Client(clientIdPrefix + "-gateway-" + index, gateway, GATEWAY_MAX_IN_FLIGHT));
        }
        return connect(simulator, clients);
    }

    private record Client(String clientId, MqttLogin login, int maxInFlight) {}

    private static MqttPublishers connect(FleetSimulatorConfig simulator, List<Client> clients) {
        requireNonNull(simulator, "simulator is null");
        List<MqttPositionPublisher> publishers = new ArrayList<>();
        for (Client client : clients) {
            FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(Map.of(
                    FleetSimulatorConfig.MQTT_URI,
                    simulator.mqttUri().toString(),
                    FleetSimulatorConfig.CLIENT_ID,
                    client.clientId(),
                    FleetSimulatorConfig.MQTT_USERNAME,
                    client.login().username(),
                    FleetSimulatorConfig.MQTT_PASSWORD,
                    client.login().password(),
                    FleetSimulatorConfig.MAX_IN_FLIGHT,
                    Integer.toString(client.maxInFlight()),
                    FleetSimulatorConfig.CLOSE_TIMEOUT,
                    "120s")));
            publishers.add(new MqttPositionPublisher(config));
        }
        ExecutorService executor = Executors.newFixedThreadPool(CONNECT_THREADS, daemon("bench-mqtt-connect"));
        try {
            List<Future<?>> started = new ArrayList<>();
            for (MqttPositionPublisher publisher : publishers) {
                started.add(executor.submit(publisher::start));
            }
            for (Future<?> future : started) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeAll(publishers);
            throw new IllegalStateException("Interrupted while connecting " + clients.size() + " MQTT clients", e);
        } catch (ExecutionException e) {
            closeAll(publishers);
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            executor.shutdownNow();
        }
        return new MqttPublishers(publishers);
    }

    public MqttPositionPublisher get(int index) {
        return publishers.get(index);
    }

    public int size() {
        return publishers.size();
    }

    /** Published, acknowledged and failed messages over all clients. */
    public PublishCounts counts() {
        long published = 0;
        long acknowledged = 0;
        long failed = 0;
        for (MqttPositionPublisher publisher : publishers) {
            PublishCounts counts = publisher.counts();
            published += counts.published();
            acknowledged += counts.acknowledged();
            failed += counts.failed();
        }
        return new PublishCounts(published, acknowledged, failed);
    }

    /** Waits until every client has no message in flight; false when some still had at the timeout. */
    public boolean awaitAcknowledgements(Duration timeout) throws InterruptedException {
        for (MqttPositionPublisher publisher : publishers) {
            if (!publisher.awaitAcknowledgements(timeout)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Publishes the mix for its duration, paced: device {@code n} publishes the fix of {@code vehicles.get(n)} every
     * {@link Mix#deviceInterval()}, the devices evenly spread over the interval; gateway {@code g} publishes for the
     * vehicles after the devices' ({@code devices + g}, then every {@code gateways}-th) at its share of the rest of the
     * rate. Each fix's event time comes from {@code clock} (the send time, strictly increasing per vehicle). Returns
     * once every client has sent its last fix (not waiting for acknowledgements); the ledger fills as the broker
     * acknowledges.
     *
     * @param vehicles the fleet; needs at least one vehicle per device and one per gateway
     */
    public MixRun publish(Mix mix, List<Vehicle> vehicles, FleetFeed feed, DeviceClock clock)
            throws InterruptedException, ExecutionException {
        requireNonNull(mix, "mix is null");
        if (publishers.size() != mix.devices() + mix.gateways()) {
            throw new IllegalArgumentException("The mix has " + (mix.devices() + mix.gateways()) + " clients, "
                    + publishers.size() + " are connected; connect them with connect(simulator, prefix, mix)");
        }
        if (vehicles.size() < mix.devices() + mix.gateways()) {
            throw new IllegalArgumentException("The mix needs at least " + (mix.devices() + mix.gateways())
                    + " vehicles (one per device, at least one per gateway), the fleet has " + vehicles.size());
        }
        Ledger ledger = new Ledger();
        AtomicLong sent = new AtomicLong();
        long startNanos = System.nanoTime();
        long endNanos = startNanos + mix.duration().toNanos();
        Instant start = Instant.now();
        ExecutorService executor = Executors.newFixedThreadPool(1 + mix.gateways(), daemon("bench-mqtt-mix"));
        try {
            List<Future<Void>> done = new ArrayList<>();
            int devices = mix.devices();
            if (devices > 0) {
                done.add(executor.submit(() -> {
                    paced(mix.deviceRate(), endNanos, count -> {
                        int device = (int) (count % devices);
                        send(publishers.get(device), device, vehicles, feed, clock, ledger);
                    });
                    return null;
                }));
            }
            int others = vehicles.size() - devices;
            for (int gateway = 0; gateway < mix.gateways(); gateway++) {
                MqttPositionPublisher publisher = publishers.get(devices + gateway);
                int first = gateway;
                int stride = mix.gateways();
                int slice = Math.max(1, (others - first + stride - 1) / stride);
                done.add(executor.submit(() -> {
                    paced(mix.gatewayRate() / mix.gateways(), endNanos, count -> {
                        int vehicle = devices + first + (int) (count % slice) * stride;
                        send(publisher, vehicle, vehicles, feed, clock, ledger);
                    });
                    return null;
                }));
            }
            for (Future<Void> future : done) {
                future.get();
            }
        } finally {
            executor.shutdownNow();
        }
        return new MixRun(start, Instant.now(), ledger);
    }

    private static void send(
            MqttPositionPublisher publisher,
            int vehicleIndex,
            List<Vehicle> vehicles,
            FleetFeed feed,
            DeviceClock clock,
            Ledger ledger) {
        Vehicle vehicle = vehicles.get(vehicleIndex);
        long eventTime = clock.next(vehicleIndex, System.currentTimeMillis());
        Fix fix = feed.fix(vehicle, Instant.ofEpochMilli(eventTime));
        try {
            ledger.sent();
            publisher
                    .publish(fix.position(), vehicle.payloadFormat(), vehicle.schemaVersion())
                    .thenRun(() -> ledger.acknowledged(vehicleIndex, eventTime));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while publishing", e);
        }
    }

    /** Calls {@code send} with 0, 1, 2... at {@code rate} per second until {@code endNanos}. */
    private static void paced(double rate, long endNanos, LongConsumer send) {
        RatePacer pacer = RatePacer.perSecond(rate);
        long count = 0;
        while (!Thread.currentThread().isInterrupted()) {
            long due = pacer.nextDue(System.nanoTime());
            if (due >= endNanos) {
                return;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
                // Pacing, not waiting for a condition: the next send is due then.
                LockSupport.parkNanos(wait);
            }
            send.accept(count++);
        }
    }

    @Override
    public void close() {
        closeAll(publishers);
    }

    private static void closeAll(List<MqttPositionPublisher> publishers) {
        // Each close waits for the client's acknowledgements and disconnects: in parallel for a thousand devices.
        ExecutorService executor = Executors.newFixedThreadPool(CONNECT_THREADS, daemon("bench-mqtt-close"));
        try {
            List<Future<?>> closed = new ArrayList<>();
            for (MqttPositionPublisher publisher : publishers) {
                closed.add(executor.submit(publisher::close));
            }
            for (Future<?> future : closed) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("Closing an MQTT client failed", e.getCause());
        } finally {
            executor.shutdownNow();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * The load of a realistic fleet.
     *
     * @param rate messages per second offered in all
     * @param duration how long
     * @param devices device clients, one connection and one vehicle each
     * @param deviceInterval how often each device publishes
     * @param gateways gateway clients publishing the rest of the rate for the other vehicles
     */
    public record Mix(double rate, Duration duration, int devices, Duration deviceInterval, int gateways) {
        public Mix {
            requireNonNull(duration, "duration is null");
            requireNonNull(deviceInterval, "deviceInterval is null");
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate must be positive, got " + rate);
            }
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("duration must be positive, got " + duration);
            }
            if (devices < 0 || gateways < 1) {
                throw new IllegalArgumentException("a mix needs at least one gateway and no negative device count, got "
                        + devices + " devices and " + gateways + " gateways");
            }
            if (deviceInterval.toMillis() < 1) {
                throw new IllegalArgumentException("deviceInterval must be at least 1 ms, got " + deviceInterval);
            }
            if (devices / (deviceInterval.toMillis() / 1000.0) >= rate) {
                throw new IllegalArgumentException(devices + " devices every " + deviceInterval.toMillis()
                        + " ms already offer " + rate + " msg/s or more; the gateways need a share");
            }
        }

        /** Messages per second from all devices together. */
        public double deviceRate() {
            return devices / (deviceInterval.toMillis() / 1000.0);
        }

        /** Messages per second from all gateways together. */
        public double gatewayRate() {
            return rate - deviceRate();
        }

        /** Messages the mix offers in all. */
        public long messages() {
            return Math.round(rate * duration.toMillis() / 1000.0);
        }
    }

    /**
     * One run of a mix.
     *
     * @param start the first send
     * @param end when the last send was done
     * @param ledger what was sent and acknowledged
     */
    public record MixRun(Instant start, Instant end, Ledger ledger) {
        public MixRun {
            requireNonNull(start, "start is null");
            requireNonNull(end, "end is null");
            requireNonNull(ledger, "ledger is null");
        }
    }

    /**
     * The fixes the broker acknowledged, by (vehicle index, event time), and a reconciliation of what reached Kafka
     * against them. Each entry is one long: the vehicle index in the upper 20 bits, the event time in epoch milliseconds
     * in the lower 44 (until the year 2527), so a five-minute run at 5,000 msg/s takes 12 MB. Thread-safe.
     */
    public static final class Ledger {
        static final int VEHICLE_BITS = 20;
        static final int TIME_BITS = 64 - VEHICLE_BITS;

        private final AtomicLong sent = new AtomicLong();
        private long[] entries = new long[1024];
        private int size;

        /** A fix was handed to the MQTT client. */
        void sent() {
            sent.incrementAndGet();
        }

        /** The broker acknowledged the fix of vehicle {@code vehicleIndex} at {@code eventTimeMillis}. */
        public synchronized void acknowledged(int vehicleIndex, long eventTimeMillis) {
            if (size == entries.length) {
                entries = Arrays.copyOf(entries, size * 2);
            }
            entries[size++] = key(vehicleIndex, eventTimeMillis);
        }

        /** Fixes handed to the MQTT clients. */
        public long sentCount() {
            return sent.get();
        }

        /** Fixes the broker acknowledged. */
        public synchronized long acknowledgedCount() {
            return size;
        }

        /** The ledger key of a fix. */
        public static long key(int vehicleIndex, long eventTimeMillis) {
            if (vehicleIndex < 0 || vehicleIndex >= 1 << VEHICLE_BITS) {
                throw new IllegalArgumentException("vehicle index out of range: " + vehicleIndex);
            }
            if (eventTimeMillis < 0 || eventTimeMillis >= 1L << TIME_BITS) {
                throw new IllegalArgumentException("event time out of range: " + eventTimeMillis);
            }
            return ((long) vehicleIndex << TIME_BITS) | eventTimeMillis;
        }

        /**
         * Compares the keys of the fixes found in Kafka with the acknowledged ones.
         *
         * @param found keys of the records read from Kafka (any order, with repetitions)
         */
        public synchronized Reconciliation reconcile(long[] found) {
            long[] acknowledged = Arrays.copyOf(entries, size);
            Arrays.sort(acknowledged);
            int[] copies = new int[acknowledged.length];
            long unknown = 0;
            for (long key : found) {
                int position = Arrays.binarySearch(acknowledged, key);
                if (position < 0) {
                    unknown++;
                } else {
                    copies[position]++;
                }
            }
            long lost = 0;
            long duplicates = 0;
            for (int count : copies) {
                if (count == 0) {
                    lost++;
                } else {
                    duplicates += count - 1;
                }
            }
            return new Reconciliation(acknowledged.length, acknowledged.length - lost, lost, duplicates, unknown);
        }
    }

    /**
     * What reached Kafka of the acknowledged fixes.
     *
     * @param acknowledged fixes the broker acknowledged
     * @param found of those, how many are in Kafka
     * @param lost acknowledged and not in Kafka
     * @param duplicates extra copies in Kafka of acknowledged fixes
     * @param unknown records in Kafka that are no acknowledged fix (sent but not acknowledged, or another source)
     */
    public record Reconciliation(long acknowledged, long found, long lost, long duplicates, long unknown) {}
}
