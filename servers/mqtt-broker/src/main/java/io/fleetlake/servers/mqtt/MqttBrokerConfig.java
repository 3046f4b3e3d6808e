package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Configuration of the MQTT broker (HiveMQ Community Edition, embedded).
 *
 * @param host address the MQTT TCP listener binds to
 * @param port MQTT TCP listener port
 * @param dataDirectory directory holding the generated HiveMQ configuration and the persistent sessions and queues
 * @param maxQueuedMessages messages queued per client while it is offline or slow; beyond this HiveMQ drops new
 *     messages, so it must cover the longest expected outage of a consumer (HiveMQ's own default is only 1000)
 * @param maxSessionExpiry longest time the broker keeps a disconnected persistent session and its queue
 * @param maxPacketSize largest MQTT packet (fixed header, topic, properties and payload) a client may send; a client
 *     that sends a larger one is disconnected, MQTT 5 clients learn the limit from the CONNACK and refuse to send it
 * @param serverReceiveMaximum most QoS 1/2 publishes one MQTT 5 client may have unacknowledged towards the broker
 *     (Receive Maximum, sent in the CONNACK); a client that exceeds it is disconnected, so it must absorb the burst of a
 *     device that re-sends its whole queue at once when it reconnects
 * @param maxInflightWindow most QoS 1/2 messages the broker sends to one subscriber without its acknowledgement,
 *     whatever larger receive maximum the subscriber asks for (HiveMQ's internal limit, 50 by default)
 * @param persistence where sessions, subscriptions and queued messages are kept
 * @param identityFile the fleet's MQTT principals ({@code fleet devices}); missing means every client is refused
 * @param identityReloadInterval how often the broker checks the principals file for a change
 * @param maxConnections most open MQTT connections over all listeners
 * @param tls the TLS listener, if any
 */
public record MqttBrokerConfig(
        String host,
        int port,
        Path dataDirectory,
        long maxQueuedMessages,
        Duration maxSessionExpiry,
        int maxPacketSize,
        int serverReceiveMaximum,
        int maxInflightWindow,
        Persistence persistence,
        Path identityFile,
        Duration identityReloadInterval,
        long maxConnections,
        Optional<Tls> tls) {
    public static final String HOST = "mqtt.host";
    public static final String PORT = "mqtt.port";
    public static final String DATA_DIRECTORY = "mqtt.data-dir";
    public static final String MAX_QUEUED_MESSAGES = "mqtt.max-queued-messages";
    public static final String MAX_SESSION_EXPIRY = "mqtt.max-session-expiry";
    public static final String MAX_PACKET_SIZE = "mqtt.max-packet-size";
    public static final String SERVER_RECEIVE_MAXIMUM = "mqtt.server-receive-maximum";
    public static final String MAX_INFLIGHT_WINDOW = "mqtt.max-inflight-window";
    public static final String PERSISTENCE = "mqtt.persistence";
    public static final String IDENTITY_FILE = "mqtt.identity-file";
    public static final String IDENTITY_RELOAD_INTERVAL = "mqtt.identity-reload-interval";
    public static final String MAX_CONNECTIONS = "mqtt.max-connections";
    public static final String TLS_PORT = "mqtt.tls-port";
    public static final String TLS_CERTIFICATE = "mqtt.tls-certificate";
    public static final String TLS_PRIVATE_KEY = "mqtt.tls-private-key";
    public static final String TLS_HOSTNAMES = "mqtt.tls-hostnames";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 1883;
    public static final long DEFAULT_MAX_QUEUED_MESSAGES = 1_000_000;
    public static final Duration DEFAULT_MAX_SESSION_EXPIRY = Duration.ofDays(7);

    /**
     * 64 KiB: sixteen times the largest payload the pipeline accepts (4 KiB, {@code PAYLOAD_TOO_LARGE} beyond), far
     * below what the ingest connector writes to Kafka (1,000,000 bytes), so an oversized message is refused at the
     * first hop and never reaches the connector.
     */
    public static final int DEFAULT_MAX_PACKET_SIZE = 65_536;

    /**
     * 65,535, the largest MQTT 5 allows, instead of HiveMQ's 10: devices flood on reconnect (paho-mqtt 2.x and many
     * device SDKs re-send everything they queued while the broker was away at once, ignoring the Receive Maximum), and a
     * client that exceeds it is disconnected, again at every retry: with 100, a device that had queued more was locked
     * out. MQTT has 65,535 packet identifiers, so a client that keeps them unique can never exceed this value, and it
     * puts MQTT 5 clients on a par with MQTT 3.1.1 clients, to which HiveMQ applies no receive maximum at all. What a
     * client can make the broker hold is bounded by this value times the maximum packet size (see the README's memory
     * budget); lower it to bound that further, at the price of locking out devices that queued more.
     */
    public static final int DEFAULT_SERVER_RECEIVE_MAXIMUM = 65_535;

    /**
     * 1,000 instead of HiveMQ's internal 50: a subscriber that acknowledges a message only once it is stored elsewhere
     * (the ingest connector waits for Kafka, tens of milliseconds) gets at most this many messages per acknowledgement
     * round trip; with 50 one connector task was capped at about 1,000-2,500 msg/s here.
     */
    public static final int DEFAULT_MAX_INFLIGHT_WINDOW = 1_000;

    public static final Persistence DEFAULT_PERSISTENCE = Persistence.FILE;

    /** A revoked device is refused and disconnected within about this long. */
    public static final Duration DEFAULT_IDENTITY_RELOAD_INTERVAL = Duration.ofSeconds(1);

    /**
     * 10,000: ten times the bench's 1,005 clients, far below what the broker's 384 MiB heap would hold at the memory
     * budget of the README, and a bound on what connecting clients alone can make it hold (HiveMQ's default is none).
     */
    public static final long DEFAULT_MAX_CONNECTIONS = 10_000;

    /** The smallest maximum packet size that still lets clients connect and publish small messages. */
    static final int SMALLEST_MAX_PACKET_SIZE = 1_024;

    /** The largest packet MQTT can express (a four-byte remaining length plus the fixed header), HiveMQ's default. */
    static final int LARGEST_MAX_PACKET_SIZE = 268_435_460;

    /** MQTT 5 carries the receive maximum in two bytes. */
    static final int LARGEST_RECEIVE_MAXIMUM = 65_535;

    /** The largest session expiry interval MQTT 5 can express: a four-byte unsigned number of seconds. */
    static final long LARGEST_SESSION_EXPIRY_SECONDS = 4_294_967_295L;

    public MqttBrokerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(maxSessionExpiry, "maxSessionExpiry is null");
        requireNonNull(persistence, "persistence is null");
        requireNonNull(identityFile, "identityFile is null");
        requireNonNull(identityReloadInterval, "identityReloadInterval is null");
        requireNonNull(tls, "tls is null");
        if (host.isBlank()) {
            throw new ConfigException(HOST + " is empty: set the address to listen on, such as 127.0.0.1");
        }
        // HiveMQ does not report the port it bound, so "any free port" (0) would leave clients without an address.
        if (port < 1 || port > 65535) {
            throw new ConfigException(PORT + " = " + port + " must be a fixed port between 1 and 65535");
        }
        if (maxQueuedMessages < 1) {
            throw new ConfigException(MAX_QUEUED_MESSAGES + " = " + maxQueuedMessages
                    + " must be at least 1; size it for the longest consumer outage");
        }
        if (maxSessionExpiry.isNegative()
                || maxSessionExpiry.isZero()
                || maxSessionExpiry.getSeconds() > LARGEST_SESSION_EXPIRY_SECONDS) {
            throw new ConfigException(MAX_SESSION_EXPIRY + " = " + maxSessionExpiry
                    + " must be a positive duration of at most " + LARGEST_SESSION_EXPIRY_SECONDS + " seconds,"
                    + " such as 7d");
        }
        if (maxPacketSize < SMALLEST_MAX_PACKET_SIZE || maxPacketSize > LARGEST_MAX_PACKET_SIZE) {
            throw new ConfigException(MAX_PACKET_SIZE + " = " + maxPacketSize + " must be between "
                    + SMALLEST_MAX_PACKET_SIZE + " and " + LARGEST_MAX_PACKET_SIZE + " bytes");
        }
        if (serverReceiveMaximum < 1 || serverReceiveMaximum > LARGEST_RECEIVE_MAXIMUM) {
            throw new ConfigException(SERVER_RECEIVE_MAXIMUM + " = " + serverReceiveMaximum + " must be between 1 and "
                    + LARGEST_RECEIVE_MAXIMUM);
        }
        if (identityReloadInterval.isNegative() || identityReloadInterval.isZero()) {
            throw new ConfigException(IDENTITY_RELOAD_INTERVAL + " = " + identityReloadInterval + " must be positive");
        }
        if (maxConnections < 1) {
            throw new ConfigException(MAX_CONNECTIONS + " = " + maxConnections + " must be at least 1");
        }
        if (tls.isPresent() && tls.get().port() == port) {
            throw new ConfigException(TLS_PORT + " = " + port + " is also " + PORT + ": choose another port");
        }
        if (maxInflightWindow < 1 || maxInflightWindow > LARGEST_RECEIVE_MAXIMUM) {
            throw new ConfigException(MAX_INFLIGHT_WINDOW + " = " + maxInflightWindow + " must be between 1 and "
                    + LARGEST_RECEIVE_MAXIMUM);
        }
    }

    /** Reads the {@code mqtt.*} keys; {@value #DATA_DIRECTORY} is required. */
    public static MqttBrokerConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        Path dataDirectory = Path.of(source.requiredString(DATA_DIRECTORY));
        String host = source.string(HOST, DEFAULT_HOST);
        return new MqttBrokerConfig(
                host,
                source.port(PORT, DEFAULT_PORT),
                dataDirectory,
                source.longValue(MAX_QUEUED_MESSAGES, DEFAULT_MAX_QUEUED_MESSAGES),
                source.duration(MAX_SESSION_EXPIRY, DEFAULT_MAX_SESSION_EXPIRY),
                source.integer(MAX_PACKET_SIZE, DEFAULT_MAX_PACKET_SIZE),
                source.integer(SERVER_RECEIVE_MAXIMUM, DEFAULT_SERVER_RECEIVE_MAXIMUM),
                source.integer(MAX_INFLIGHT_WINDOW, DEFAULT_MAX_INFLIGHT_WINDOW),
                Persistence.parse(source.string(PERSISTENCE, DEFAULT_PERSISTENCE.configValue())),
                source.path(IDENTITY_FILE, defaultIdentityFile(dataDirectory)),
                source.duration(IDENTITY_RELOAD_INTERVAL, DEFAULT_IDENTITY_RELOAD_INTERVAL),
                source.longValue(MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS),
                tls(source, host, dataDirectory));
    }

    /** Where the principals are when {@value #IDENTITY_FILE} is not set: {@code <data-dir>/identity/principals.json}. */
    public static Path defaultIdentityFile(Path dataDirectory) {
        return dataDirectory.resolve("identity").resolve("principals.json");
    }

    /** Where the generated CA and server certificate are kept: {@code <data-dir>/tls}. */
    public static Path defaultTlsDirectory(Path dataDirectory) {
        return dataDirectory.resolve("tls");
    }

    private static Optional<Tls> tls(ConfigSource source, String host, Path dataDirectory) {
        Optional<String> port = source.string(TLS_PORT).filter(value -> !value.isBlank());
        Optional<Path> certificate = source.string(TLS_CERTIFICATE).map(Path::of);
        Optional<Path> privateKey = source.string(TLS_PRIVATE_KEY).map(Path::of);
        if (port.isEmpty()) {
            if (certificate.isPresent() || privateKey.isPresent()) {
                throw new ConfigException(TLS_CERTIFICATE + " and " + TLS_PRIVATE_KEY + " need " + TLS_PORT
                        + ": set the port of the TLS listener");
            }
            return Optional.empty();
        }
        List<String> hostnames = source.string(TLS_HOSTNAMES)
                .map(value -> Arrays.stream(value.split(","))
                        .map(String::trim)
                        .filter(name -> !name.isEmpty())
                        .toList())
                .orElseGet(() -> defaultHostnames(host));
        return Optional.of(new Tls(
                source.port(TLS_PORT, 0), certificate, privateKey, hostnames, defaultTlsDirectory(dataDirectory)));
    }

    /** The listener's address unless it is a wildcard, and the loopback names. */
    static List<String> defaultHostnames(String host) {
        Set<String> names = new LinkedHashSet<>();
        if (!host.equals("0.0.0.0") && !host.equals("::")) {
            names.add(host);
        }
        names.add("localhost");
        names.add("127.0.0.1");
        return List.copyOf(names);
    }

    /**
     * The TLS listener.
     *
     * @param port its port
     * @param certificate the user's PEM certificate chain (server certificate first); empty: one issued by the local CA
     * @param privateKey the user's unencrypted PEM key of that certificate; with {@code certificate} only
     * @param hostnames names and addresses the generated certificate is issued for
     * @param generatedDirectory where the local CA and its server certificate are kept ({@code ca.pem} for clients)
     */
    public record Tls(
            int port,
            Optional<Path> certificate,
            Optional<Path> privateKey,
            List<String> hostnames,
            Path generatedDirectory) {
        public Tls {
            requireNonNull(certificate, "certificate is null");
            requireNonNull(privateKey, "privateKey is null");
            hostnames = List.copyOf(requireNonNull(hostnames, "hostnames is null"));
            requireNonNull(generatedDirectory, "generatedDirectory is null");
            if (port < 1 || port > 65535) {
                throw new ConfigException(TLS_PORT + " = " + port + " must be a fixed port between 1 and 65535");
            }
            if (certificate.isPresent() != privateKey.isPresent()) {
                throw new ConfigException("Set both " + TLS_CERTIFICATE + " and " + TLS_PRIVATE_KEY
                        + " (your PEM certificate chain and its key), or neither for a certificate of the local CA");
            }
            if (certificate.isEmpty() && hostnames.isEmpty()) {
                throw new ConfigException(TLS_HOSTNAMES + " is empty: name the hosts clients connect to");
            }
        }

        /** The CA certificate clients trust when the certificate is the local CA's. */
        public Path caCertificate() {
            return generatedDirectory.resolve("ca.pem");
        }
    }

    /** {@code host:port} of the MQTT TCP listener. */
    public String address() {
        return host + ":" + port;
    }

    /** Where the generated {@code config.xml} is written. */
    public Path configurationDirectory() {
        return dataDirectory.resolve("conf");
    }

    /** Where HiveMQ keeps sessions, subscriptions and queued messages. */
    public Path persistenceDirectory() {
        return dataDirectory.resolve("data");
    }

    /** HiveMQ's extension folder; left empty (the broker's own extensions are embedded). */
    public Path extensionsDirectory() {
        return dataDirectory.resolve("extensions");
    }

    /** Where HiveMQ keeps sessions, subscriptions and queued messages. */
    public enum Persistence {
        /**
         * Files under the data directory: sessions, subscriptions and queued QoS 1 messages survive a broker restart or
         * crash.
         */
        FILE("file"),
        /**
         * Memory only: a broker restart or crash loses every session, its subscriptions and the messages queued for
         * it (published, acknowledged to the publisher, not yet acknowledged by the subscriber).
         */
        IN_MEMORY("in-memory");

        private final String configValue;

        Persistence(String configValue) {
            this.configValue = configValue;
        }

        /** As written in the configuration and in HiveMQ's {@code config.xml}. */
        public String configValue() {
            return configValue;
        }

        static Persistence parse(String value) {
            for (Persistence persistence : values()) {
                if (persistence.configValue.equals(value)) {
                    return persistence;
                }
            }
            throw new ConfigException(PERSISTENCE + " = '" + value + "' must be file or in-memory");
        }
    }
}
