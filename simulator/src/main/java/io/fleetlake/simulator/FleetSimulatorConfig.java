package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.model.FleetPatterns;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Configuration of the fleet simulator, read from keys {@code simulator.*} (see the module README for the table).
 *
 * @param vehicles fleet size; vehicles are {@code VH-0001} onwards
 * @param seed makes routes, device formats and measurement noise reproducible
 * @param fixInterval time between two fixes of one vehicle
 * @param rate most messages per second over the whole fleet; 0 leaves the natural rate, vehicles / fix interval
 * @param duration how long to publish; zero publishes until stopped
 * @param mqttUri broker, {@code tcp://host:port} or {@code ssl://host:port}
 * @param mqttUsername optional user name
 * @param mqttPassword optional password, only with a user name; redacted in {@link #toString()}
 * @param clientId MQTT client identifier; must be unique on the broker
 * @param jsonShare share of devices that publish JSON; the others publish Avro single-object messages
 * @param maxInFlight most messages published but not yet acknowledged; publishing waits when it is reached
 * @param connectTimeout how long to wait for the broker at start-up
 * @param closeTimeout how long to wait for outstanding acknowledgements when stopping
 * @param v2Share share of devices on firmware 2: Avro schema version 2 and JSON with {@code battery_level}
 * @param deliveryStopDuration about how long vehicles halt at each stop of their route; 0 drives through
 * @param deviationRate detours off the planned path per vehicle-hour; 0 disables them
 * @param glitchRate GPS glitches (one fix tens of km off) per vehicle-hour; 0 disables them
 * @param garageRate garage outages (device offline, fixes buffered and sent at once afterwards) per vehicle-hour; 0
 *     disables them
 * @param deviceCredentials a file of {@code vehicle=secret} lines: those vehicles publish on a connection of their own
 *     as their device principal (user name and client id = vehicle id), the others through {@link #clientId()}'s
 *     connection (a gateway)
 * @param garageDuration how long a garage outage lasts
 * @param garageFixInterval time between the fixes a device buffers during a garage outage
 */
public record FleetSimulatorConfig(
        int vehicles,
        long seed,
        Duration fixInterval,
        double rate,
        Duration duration,
        URI mqttUri,
        Optional<String> mqttUsername,
        Optional<String> mqttPassword,
        String clientId,
        double jsonShare,
        int maxInFlight,
        Duration connectTimeout,
        Duration closeTimeout,
        double v2Share,
        Duration deliveryStopDuration,
        double deviationRate,
        double glitchRate,
        double garageRate,
        Duration garageDuration,
        Duration garageFixInterval,
        Optional<Path> deviceCredentials) {
    public static final String VEHICLES = "simulator.vehicles";
    public static final String SEED = "simulator.seed";
    public static final String FIX_INTERVAL = "simulator.fix-interval";
    public static final String RATE = "simulator.rate";
    public static final String DURATION = "simulator.duration";
    public static final String MQTT_URI = "simulator.mqtt-uri";
    public static final String MQTT_USERNAME = "simulator.mqtt-username";
    public static final String MQTT_PASSWORD = "simulator.mqtt-password";
    public static final String CLIENT_ID = "simulator.client-id";
    public static final String JSON_SHARE = "simulator.json-share";
    public static final String MAX_IN_FLIGHT = "simulator.max-in-flight";
    public static final String CONNECT_TIMEOUT = "simulator.connect-timeout";
    public static final String CLOSE_TIMEOUT = "simulator.close-timeout";
    public static final String V2_SHARE = "simulator.v2-share";
    public static final String DELIVERY_STOP_DURATION = "simulator.delivery-stop-duration";
    public static final String DEVIATION_RATE = "simulator.deviation-rate";
    public static final String GLITCH_RATE = "simulator.glitch-rate";
    public static final String GARAGE_RATE = "simulator.garage-rate";
    public static final String GARAGE_DURATION = "simulator.garage-duration";
    public static final String GARAGE_FIX_INTERVAL = "simulator.garage-fix-interval";
    public static final String DEVICE_CREDENTIALS = "simulator.device-credentials";

    /** Messages a device connection may have unacknowledged: a device sends one fix per fix interval. */
    static final int DEVICE_MAX_IN_FLIGHT = 10;

    public static final int DEFAULT_VEHICLES = 340;
    public static final long DEFAULT_SEED = 42;
    public static final Duration DEFAULT_FIX_INTERVAL = Duration.ofSeconds(5);
    public static final double DEFAULT_RATE = 0;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    public static final URI DEFAULT_MQTT_URI = URI.create("tcp://127.0.0.1:1883");
    public static final String DEFAULT_CLIENT_ID = "fleet-simulator";
    public static final double DEFAULT_JSON_SHARE = 0.1;
    public static final int DEFAULT_MAX_IN_FLIGHT = 1000;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    public static final double DEFAULT_V2_SHARE = 0.3;
    public static final Duration DEFAULT_DELIVERY_STOP_DURATION = Duration.ofMinutes(3);
    public static final double DEFAULT_DEVIATION_RATE = 0.2;
    public static final double DEFAULT_GLITCH_RATE = 0.5;
    public static final double DEFAULT_GARAGE_RATE = 0.1;
    public static final Duration DEFAULT_GARAGE_DURATION = Duration.ofMinutes(10);
    public static final Duration DEFAULT_GARAGE_FIX_INTERVAL = Duration.ofSeconds(1);

    public static final int MAXIMUM_VEHICLES = 100_000;
    static final Duration MINIMUM_FIX_INTERVAL = Duration.ofMillis(1);
    static final Duration MAXIMUM_FIX_INTERVAL = Duration.ofHours(1);
    static final double MAXIMUM_RATE = 1_000_000;

    private static final int DEFAULT_MQTT_PORT = 1883;
    private static final int DEFAULT_MQTTS_PORT = 8883;

    public FleetSimulatorConfig {
        requireNonNull(fixInterval, "fixInterval is null");
        requireNonNull(duration, "duration is null");
        requireNonNull(mqttUri, "mqttUri is null");
        requireNonNull(mqttUsername, "mqttUsername is null");
        requireNonNull(mqttPassword, "mqttPassword is null");
        requireNonNull(clientId, "clientId is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(closeTimeout, "closeTimeout is null");
        requireNonNull(deliveryStopDuration, "deliveryStopDuration is null");
        requireNonNull(garageDuration, "garageDuration is null");
        requireNonNull(garageFixInterval, "garageFixInterval is null");
        requireNonNull(deviceCredentials, "deviceCredentials is null");
        require(vehicles >= 1 && vehicles <= MAXIMUM_VEHICLES, VEHICLES, vehicles, "between 1 and " + MAXIMUM_VEHICLES);
        require(
                fixInterval.compareTo(MINIMUM_FIX_INTERVAL) >= 0 && fixInterval.compareTo(MAXIMUM_FIX_INTERVAL) <= 0,
                FIX_INTERVAL,
                fixInterval,
                "between 1ms and 1h");
        require(
                Double.isFinite(rate) && rate >= 0 && rate <= MAXIMUM_RATE,
                RATE,
                rate,
                "0 (the natural rate, vehicles / fix interval) or a rate up to " + (long) MAXIMUM_RATE
                        + " messages per second");
        require(!duration.isNegative(), DURATION, duration, "0s (until stopped) or a positive duration such as 60s");
        require(
                "tcp".equals(scheme(mqttUri)) || "ssl".equals(scheme(mqttUri)),
                MQTT_URI,
                mqttUri,
                "a URI such as tcp://127.0.0.1:1883 or ssl://broker:8883");
        require(mqttUri.getHost() != null, MQTT_URI, mqttUri, "a URI with a host, such as tcp://127.0.0.1:1883");
        require(
                mqttPassword.isEmpty() || mqttUsername.isPresent(),
                MQTT_PASSWORD,
                "<redacted>",
                "to be set together with " + MQTT_USERNAME + " (MQTT sends no password without a user name)");
        require(!clientId.isBlank(), CLIENT_ID, clientId, "a non-empty MQTT client identifier");
        require(jsonShare >= 0 && jsonShare <= 1, JSON_SHARE, jsonShare, "a share between 0 and 1, such as 0.1");
        require(maxInFlight >= 1, MAX_IN_FLIGHT, maxInFlight, "at least 1");
        require(
                !connectTimeout.isNegative() && !connectTimeout.isZero(),
                CONNECT_TIMEOUT,
                connectTimeout,
                "a positive duration such as 10s");
        require(!closeTimeout.isNegative(), CLOSE_TIMEOUT, closeTimeout, "0 or a positive duration such as 30s");
        require(v2Share >= 0 && v2Share <= 1, V2_SHARE, v2Share, "a share between 0 and 1, such as 0.3");
        requireDeliveryStopDuration(deliveryStopDuration);
        require(
                deviationRate >= 0 && deviationRate <= FleetPatterns.MAXIMUM_DEVIATIONS_PER_HOUR,
                DEVIATION_RATE,
                deviationRate,
                "detours per vehicle-hour between 0 (none) and 6, such as 0.2");
        require(
                glitchRate >= 0 && glitchRate <= FleetPatterns.MAXIMUM_GLITCHES_PER_HOUR,
                GLITCH_RATE,
                glitchRate,
                "GPS glitches per vehicle-hour between 0 (none) and 60, such as 0.5");
        require(
                !garageDuration.isNegative()
                        && !garageDuration.isZero()
                        && garageDuration.compareTo(FleetPatterns.MAXIMUM_GARAGE_DURATION) <= 0,
                GARAGE_DURATION,
                garageDuration,
                "a duration above 0 and up to 1h, such as 10m");
        require(
                garageRate >= 0
                        && FleetPatterns.offlineShare(garageRate, garageDuration)
                                <= FleetPatterns.MAXIMUM_OFFLINE_SHARE,
                GARAGE_RATE,
                garageRate,
                "garage outages per vehicle-hour from 0 (none) up to 0.5 h / " + GARAGE_DURATION + " (" + garageDuration
                        + "), so that devices are offline at most half of the time");
        require(
                garageFixInterval.toMillis() >= 1
                        && FleetPatterns.bufferedFixes(garageDuration, garageFixInterval)
                                <= FleetPatterns.MAXIMUM_BUFFERED_FIXES,
                GARAGE_FIX_INTERVAL,
                garageFixInterval,
                "at least 1ms and at most " + FleetPatterns.MAXIMUM_BUFFERED_FIXES + " fixes per outage of "
                        + garageDuration + ", such as 1s");
    }

    /** Also read by the planning API, which serves the routes the simulator drives. */
    public static Duration deliveryStopDuration(ConfigSource source) {
        Duration duration = source.duration(DELIVERY_STOP_DURATION, DEFAULT_DELIVERY_STOP_DURATION);
        requireDeliveryStopDuration(duration);
        return duration;
    }

    /** Reads every {@code simulator.*} key, falling back to the defaults, and validates the result. */
    public static FleetSimulatorConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new FleetSimulatorConfig(
                source.integer(VEHICLES, DEFAULT_VEHICLES),
                source.longValue(SEED, DEFAULT_SEED),
                source.duration(FIX_INTERVAL, DEFAULT_FIX_INTERVAL),
                source.doubleValue(RATE, DEFAULT_RATE),
                source.duration(DURATION, DEFAULT_DURATION),
                source.uri(MQTT_URI, DEFAULT_MQTT_URI),
                source.string(MQTT_USERNAME),
                source.string(MQTT_PASSWORD),
                source.string(CLIENT_ID, DEFAULT_CLIENT_ID),
                source.doubleValue(JSON_SHARE, DEFAULT_JSON_SHARE),
                source.integer(MAX_IN_FLIGHT, DEFAULT_MAX_IN_FLIGHT),
                source.duration(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT),
                source.duration(CLOSE_TIMEOUT, DEFAULT_CLOSE_TIMEOUT),
                source.doubleValue(V2_SHARE, DEFAULT_V2_SHARE),
                source.duration(DELIVERY_STOP_DURATION, DEFAULT_DELIVERY_STOP_DURATION),
                source.doubleValue(DEVIATION_RATE, DEFAULT_DEVIATION_RATE),
                source.doubleValue(GLITCH_RATE, DEFAULT_GLITCH_RATE),
                source.doubleValue(GARAGE_RATE, DEFAULT_GARAGE_RATE),
                source.duration(GARAGE_DURATION, DEFAULT_GARAGE_DURATION),
                source.duration(GARAGE_FIX_INTERVAL, DEFAULT_GARAGE_FIX_INTERVAL),
                source.string(DEVICE_CREDENTIALS)
                        .filter(value -> !value.isBlank())
                        .map(Path::of));
    }

    /**
     * The connection of one vehicle's own device: client id and user name the vehicle id, its secret, a device's
     * small in-flight window; everything else as this configuration.
     */
    public FleetSimulatorConfig asDevice(String vehicleId, String secret) {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(secret, "secret is null");
        return new FleetSimulatorConfig(
                vehicles,
                seed,
                fixInterval,
                rate,
                duration,
                mqttUri,
                Optional.of(vehicleId),
                Optional.of(secret),
                vehicleId,
                jsonShare,
                Math.min(maxInFlight, DEVICE_MAX_IN_FLIGHT),
                connectTimeout,
                closeTimeout,
                v2Share,
                deliveryStopDuration,
                deviationRate,
                glitchRate,
                garageRate,
                garageDuration,
                garageFixInterval,
                Optional.empty());
    }

    /** Every default. */
    public static FleetSimulatorConfig defaults() {
        return from(ConfigSource.empty());
    }

    /** Firmware versions, delivery stops and incidents of the simulated fleet. */
    public FleetPatterns patterns() {
        return new FleetPatterns(
                v2Share,
                deliveryStopDuration,
                deviationRate,
                glitchRate,
                garageRate,
                garageDuration,
                garageFixInterval);
    }

    /**
     * The rate the fleet produces on its own: one fix per vehicle per fix interval. Garage outages add their buffered
     * fixes on top (see the README).
     */
    public double naturalRate() {
        return vehicles / (fixInterval.toNanos() / 1e9);
    }

    /** The rate publishing aims at: the natural rate, capped by {@link #rate()} when that is set. */
    public double effectiveRate() {
        return rate > 0 ? Math.min(rate, naturalRate()) : naturalRate();
    }

    /** Whether publishing ends on its own after {@link #duration()}. */
    public boolean bounded() {
        return !duration.isZero();
    }

    public String mqttHost() {
        return mqttUri.getHost();
    }

    /** The URI's port, or 1883 for tcp and 8883 for ssl when it has none. */
    public int mqttPort() {
        if (mqttUri.getPort() != -1) {
            return mqttUri.getPort();
        }
        return "ssl".equals(scheme(mqttUri)) ? DEFAULT_MQTTS_PORT : DEFAULT_MQTT_PORT;
    }

    public boolean mqttTls() {
        return "ssl".equals(scheme(mqttUri));
    }

    @Override
    public String toString() {
        return "FleetSimulatorConfig[vehicles=" + vehicles + ", seed=" + seed + ", fixInterval=" + fixInterval
                + ", rate=" + rate + ", duration=" + duration + ", mqttUri=" + mqttUri + ", mqttUsername="
                + mqttUsername.orElse("<none>") + ", mqttPassword="
                + (mqttPassword.isPresent() ? "<redacted>" : "<none>")
                + ", clientId=" + clientId + ", jsonShare=" + jsonShare + ", maxInFlight=" + maxInFlight
                + ", connectTimeout=" + connectTimeout + ", closeTimeout=" + closeTimeout + ", v2Share=" + v2Share
                + ", deliveryStopDuration=" + deliveryStopDuration + ", deviationRate=" + deviationRate
                + ", glitchRate=" + glitchRate + ", garageRate=" + garageRate + ", garageDuration=" + garageDuration
                + ", garageFixInterval=" + garageFixInterval + ", deviceCredentials="
                + deviceCredentials.map(Path::toString).orElse("<none>") + "]";
    }

    private static String scheme(URI uri) {
        return uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    }

    private static void requireDeliveryStopDuration(Duration duration) {
        require(
                !duration.isNegative() && duration.compareTo(FleetPatterns.MAXIMUM_DELIVERY_STOP_DURATION) <= 0,
                DELIVERY_STOP_DURATION,
                duration,
                "0s (drive through stops) or a duration up to 1h, such as 3m");
    }

    private static void require(boolean valid, String key, Object value, String expected) {
        if (!valid) {
            throw ConfigException.invalidValue(key, value, expected);
        }
    }
}
