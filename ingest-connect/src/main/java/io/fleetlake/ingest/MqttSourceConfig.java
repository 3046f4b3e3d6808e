package io.fleetlake.ingest;

import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Topics;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Configuration of the {@link MqttSourceConnector}: where to read MQTT messages from and which Kafka topic to write
 * them to. Every key is documented in {@link #configDef()}, which Connect also serves through its REST API
 * ({@code PUT /connector-plugins/MqttSourceConnector/config/validate}).
 */
public class MqttSourceConfig extends AbstractConfig {
    public static final String SERVER_URI = "mqtt.server-uri";
    public static final String TOPIC_FILTER = "mqtt.topic-filter";
    public static final String CLIENT_ID_PREFIX = "mqtt.client-id-prefix";
    public static final String USERNAME = "mqtt.username";
    public static final String PASSWORD = "mqtt.password";
    public static final String SESSION_EXPIRY = "mqtt.session-expiry";
    public static final String QUEUE_CAPACITY = "mqtt.queue-capacity";
    public static final String MAX_BATCH_SIZE = "mqtt.max-batch-size";
    public static final String KAFKA_TOPIC = "kafka.topic";
    public static final String MAX_RECORD_SIZE = "connect.max-record-size";
    public static final String DEAD_LETTER_TOPIC = "connect.dead-letter-topic";
    public static final String DEAD_LETTER_PREVIEW_SIZE = "connect.dead-letter-preview-size";

    public static final String DEFAULT_SERVER_URI = "tcp://127.0.0.1:1883";
    public static final String DEFAULT_CLIENT_ID_PREFIX = "fleet-ingest";
    public static final long DEFAULT_SESSION_EXPIRY_SECONDS = Duration.ofDays(7).toSeconds();
    public static final int DEFAULT_QUEUE_CAPACITY = 10_000;
    public static final int DEFAULT_MAX_BATCH_SIZE = 1_000;

    /**
     * One million bytes: below the broker's and the topics' default {@code message.max.bytes} (1,048,588) minus the
     * record batch header (61 bytes), so that a record the connector lets through is never refused by a broker that
     * keeps its defaults.
     */
    public static final int DEFAULT_MAX_RECORD_SIZE = 1_000_000;

    public static final String DEFAULT_DEAD_LETTER_TOPIC = Topics.DLQ_POSITIONS;
    public static final int DEFAULT_DEAD_LETTER_PREVIEW_SIZE = 4_096;

    /** MQTT 5 carries the receive maximum in two bytes; the queue capacity is sent as the receive maximum. */
    static final int MAXIMUM_QUEUE_CAPACITY = 65_535;

    /** Large enough for any position a device sends whole, small enough to keep dead letters light. */
    static final int MAXIMUM_DEAD_LETTER_PREVIEW_SIZE = 65_536;

    /** MQTT 5 carries the session expiry interval in four bytes; the largest value means "never expires". */
    static final long MAXIMUM_SESSION_EXPIRY_SECONDS = 4_294_967_295L;

    private static final String CONNECTION_GROUP = "MQTT connection";
    private static final String SUBSCRIPTION_GROUP = "MQTT subscription";
    private static final String FLOW_CONTROL_GROUP = "Flow control";
    private static final String KAFKA_GROUP = "Kafka";
    private static final String DEAD_LETTER_GROUP = "Dead letters";

    private static final Pattern CLIENT_ID_PREFIX_PATTERN = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern KAFKA_TOPIC_PATTERN = Pattern.compile("[A-Za-z0-9._-]{1,249}");
    private static final String SHARED_SUBSCRIPTION_PREFIX = "$share/";

    private static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(
                    SERVER_URI,
                    Type.STRING,
                    DEFAULT_SERVER_URI,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> parseServerUri(name, (String) value),
                            () -> "tcp://host:port or ssl://host:port"),
                    Importance.HIGH,
                    "MQTT broker to subscribe to, as tcp://host:port (plain) or ssl://host:port (TLS). The port"
                            + " defaults to 1883 for tcp and 8883 for ssl.",
                    CONNECTION_GROUP,
                    1,
                    Width.LONG,
                    "MQTT server URI")
            .define(
                    CLIENT_ID_PREFIX,
                    Type.STRING,
                    DEFAULT_CLIENT_ID_PREFIX,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> requireMatch(
                                    name,
                                    value,
                                    CLIENT_ID_PREFIX_PATTERN,
                                    "must be letters, digits, '.', '_' or '-' (it names the MQTT client ids and"
                                            + " the shared subscription group)"),
                            () -> "letters, digits, '.', '_' or '-'"),
                    Importance.HIGH,
                    "Prefix of the MQTT client ids. Task n connects as <prefix>-<n>; the id stays the same across"
                            + " restarts so that the broker keeps the task's persistent session and redelivers what"
                            + " was not acknowledged. With more than one task the prefix also names the shared"
                            + " subscription group ($share/<prefix>/<filter>).",
                    CONNECTION_GROUP,
                    2,
                    Width.MEDIUM,
                    "Client id prefix")
            .define(
                    USERNAME,
                    Type.STRING,
                    null,
                    Importance.MEDIUM,
                    "User name for MQTT authentication; empty for none.",
                    CONNECTION_GROUP,
                    3,
                    Width.MEDIUM,
                    "User name")
            .define(
                    PASSWORD,
                    Type.PASSWORD,
                    null,
                    Importance.MEDIUM,
                    "Password for MQTT authentication; requires " + USERNAME + ".",
                    CONNECTION_GROUP,
                    4,
                    Width.MEDIUM,
                    "Password")
            .define(
                    SESSION_EXPIRY,
                    Type.LONG,
                    DEFAULT_SESSION_EXPIRY_SECONDS,
                    Range.between(1, MAXIMUM_SESSION_EXPIRY_SECONDS),
                    Importance.MEDIUM,
                    "Seconds the broker keeps a task's session (its subscription and the messages not yet"
                            + " acknowledged) while the task is disconnected. A worker down for longer loses the"
                            + " messages queued for it.",
                    CONNECTION_GROUP,
                    5,
                    Width.SHORT,
                    "Session expiry (seconds)")
            .define(
                    TOPIC_FILTER,
                    Type.STRING,
                    MqttTopics.POSITION_FILTER,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> validateTopicFilter(name, (String) value), () -> "an MQTT topic filter"),
                    Importance.HIGH,
                    "MQTT topic filter to subscribe to with QoS 1. Give the plain filter: with more than one task"
                            + " the connector subscribes to $share/<client id prefix>/<filter> itself.",
                    SUBSCRIPTION_GROUP,
                    1,
                    Width.LONG,
                    "Topic filter")
            .define(
                    QUEUE_CAPACITY,
                    Type.INT,
                    DEFAULT_QUEUE_CAPACITY,
                    Range.between(1, MAXIMUM_QUEUE_CAPACITY),
                    Importance.LOW,
                    "Messages buffered between the MQTT client and poll(), and the most messages a task holds"
                            + " without an acknowledgement. Sent to the broker as the MQTT 5 receive maximum, so a"
                            + " task that cannot write to Kafka fast enough slows the broker down instead of"
                            + " buffering without bound.",
                    FLOW_CONTROL_GROUP,
                    1,
                    Width.SHORT,
                    "Queue capacity")
            .define(
                    MAX_BATCH_SIZE,
                    Type.INT,
                    DEFAULT_MAX_BATCH_SIZE,
                    Range.atLeast(1),
                    Importance.LOW,
                    "Most records returned by one poll(); with exactly-once support each poll is one Kafka"
                            + " transaction.",
                    FLOW_CONTROL_GROUP,
                    2,
                    Width.SHORT,
                    "Max batch size")
            .define(
                    KAFKA_TOPIC,
                    Type.STRING,
                    Topics.RAW_POSITIONS,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> requireMatch(
                                    name,
                                    value,
                                    KAFKA_TOPIC_PATTERN,
                                    "must be a Kafka topic name (1 to 249 letters, digits, '.', '_' or '-')"),
                            () -> "a Kafka topic name"),
                    Importance.HIGH,
                    "Kafka topic the MQTT payloads are written to, keyed by vehicle id.",
                    KAFKA_GROUP,
                    1,
                    Width.MEDIUM,
                    "Kafka topic")
            .define(
                    MAX_RECORD_SIZE,
                    Type.INT,
                    DEFAULT_MAX_RECORD_SIZE,
                    Range.atLeast(DeadLetters.MAXIMUM_OVERHEAD),
                    Importance.MEDIUM,
                    "Largest Kafka record in bytes (key, value, headers and record overhead, as the producer counts"
                            + " it). A message whose record would be larger is not sent: it is dead-lettered and"
                            + " acknowledged. The worker uses the same value as the producer's max.request.size; keep"
                            + " it at most the broker's and the topic's message.max.bytes minus 61 bytes.",
                    KAFKA_GROUP,
                    2,
                    Width.SHORT,
                    "Max record size (bytes)")
            .define(
                    DEAD_LETTER_TOPIC,
                    Type.STRING,
                    DEFAULT_DEAD_LETTER_TOPIC,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> requireMatch(
                                    name,
                                    value,
                                    KAFKA_TOPIC_PATTERN,
                                    "must be a Kafka topic name (1 to 249 letters, digits, '.', '_' or '-')"),
                            () -> "a Kafka topic name"),
                    Importance.MEDIUM,
                    "Kafka topic of the dead letters: messages Kafka cannot take (too large, refused), with reason"
                            + " INGEST_REFUSED, the payload size, the MQTT topic, a preview of the payload and the"
                            + " reason in the headers.",
                    DEAD_LETTER_GROUP,
                    1,
                    Width.MEDIUM,
                    "Dead-letter topic")
            .define(
                    DEAD_LETTER_PREVIEW_SIZE,
                    Type.INT,
                    DEFAULT_DEAD_LETTER_PREVIEW_SIZE,
                    Range.between(0, MAXIMUM_DEAD_LETTER_PREVIEW_SIZE),
                    Importance.LOW,
                    "Most payload bytes a dead letter keeps as its value; a payload that is no longer is kept whole"
                            + " (header dlq.truncated=false). A dead letter is at most this plus "
                            + DeadLetters.MAXIMUM_OVERHEAD + " bytes, so it must leave that much room below "
                            + MAX_RECORD_SIZE + ".",
                    DEAD_LETTER_GROUP,
                    2,
                    Width.SHORT,
                    "Dead-letter preview (bytes)");

    public MqttSourceConfig(Map<String, String> properties) {
        this(CONFIG_DEF, properties);
    }

    protected MqttSourceConfig(ConfigDef definition, Map<String, String> properties) {
        // Not logged here: the task logs the settings it uses, and the password stays out of the log.
        super(definition, properties, false);
        if (password().isPresent() && username().isEmpty()) {
            throw new ConfigException(PASSWORD, "[hidden]", "a password needs " + USERNAME + "; set both or neither");
        }
        if (deadLetterPreviewSize() + DeadLetters.MAXIMUM_OVERHEAD > maxRecordSize()) {
            throw new ConfigException(
                    DEAD_LETTER_PREVIEW_SIZE,
                    deadLetterPreviewSize(),
                    "a dead letter holds the preview plus up to " + DeadLetters.MAXIMUM_OVERHEAD
                            + " bytes of key and headers and must fit " + MAX_RECORD_SIZE + " (" + maxRecordSize()
                            + "); lower the preview or raise the record size");
        }
    }

    /** The definition of every key, with defaults, validators, groups and documentation. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG_DEF);
    }

    /** The broker URI with its port filled in. */
    public URI serverUri() {
        return parseServerUri(SERVER_URI, getString(SERVER_URI));
    }

    public String topicFilter() {
        return getString(TOPIC_FILTER);
    }

    public String clientIdPrefix() {
        return getString(CLIENT_ID_PREFIX);
    }

    public Optional<String> username() {
        return Optional.ofNullable(getString(USERNAME)).filter(value -> !value.isEmpty());
    }

    public Optional<Password> password() {
        return Optional.ofNullable(getPassword(PASSWORD))
                .filter(value -> !value.value().isEmpty());
    }

    public Duration sessionExpiry() {
        return Duration.ofSeconds(getLong(SESSION_EXPIRY));
    }

    public int queueCapacity() {
        return getInt(QUEUE_CAPACITY);
    }

    public int maxBatchSize() {
        return getInt(MAX_BATCH_SIZE);
    }

    public String kafkaTopic() {
        return getString(KAFKA_TOPIC);
    }

    public int maxRecordSize() {
        return getInt(MAX_RECORD_SIZE);
    }

    public String deadLetterTopic() {
        return getString(DEAD_LETTER_TOPIC);
    }

    public int deadLetterPreviewSize() {
        return getInt(DEAD_LETTER_PREVIEW_SIZE);
    }

    static URI parseServerUri(String name, String value) {
        if (value == null) {
            throw new ConfigException(name, null, "must be tcp://host:port or ssl://host:port");
        }
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new ConfigException(
                    name, value, "must be tcp://host:port or ssl://host:port (" + e.getMessage() + ")");
        }
        String scheme = Optional.ofNullable(uri.getScheme())
                .map(candidate -> candidate.toLowerCase(Locale.ROOT))
                .orElse("");
        if (!scheme.equals("tcp") && !scheme.equals("ssl")) {
            throw new ConfigException(name, value, "must start with tcp:// (plain) or ssl:// (TLS)");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new ConfigException(name, value, "must name a host, as in tcp://127.0.0.1:1883");
        }
        if (uri.getRawPath() != null
                && !uri.getRawPath().isEmpty()
                && !uri.getRawPath().equals("/")) {
            throw new ConfigException(name, value, "must not have a path; give only tcp://host:port");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("tcp") ? 1883 : 8883;
        if (port == 0) {
            throw new ConfigException(name, value, "must name a port between 1 and 65535");
        }
        return URI.create(scheme + "://" + uri.getHost() + ":" + port);
    }

    private static void validateTopicFilter(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new ConfigException(
                    name, value, "must be an MQTT topic filter such as " + MqttTopics.POSITION_FILTER);
        }
        if (value.startsWith(SHARED_SUBSCRIPTION_PREFIX)) {
            throw new ConfigException(
                    name,
                    value,
                    "give the plain filter; the connector adds $share/<prefix>/ itself when tasks.max > 1");
        }
        try {
            MqttTopicFilter.of(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, "is not a valid MQTT topic filter: " + e.getMessage());
        }
    }

    private static void requireMatch(String name, Object value, Pattern pattern, String rule) {
        if (!(value instanceof String text) || !pattern.matcher(text).matches()) {
            throw new ConfigException(name, value, rule);
        }
    }
}
