package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Position;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionField;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.operations.inspect.FlinkInspector;
import io.fleetlake.operations.inspect.TopicRange;
import io.fleetlake.operations.status.StackStatusFile;
import io.fleetlake.redis.RedisConnections;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * Runs {@code fleet verify} against the real servers, read-only: the pipeline's committed offsets (Kafka admin API),
 * {@code fleet.positions} and {@code fleet.rejected_positions} (through Trino), the raw positions topic
 * (read_committed, decoded with the pipeline's codec), Redis, the pipeline's job restarts (Flink REST API) and the
 * supervisor's restarts (the stack's status file). The order matters: the committed offsets are read first, then the
 * tables, then the topic, so that every record the pipeline had committed past was in the tables when they were read;
 * a record it had not committed past is judged by how long it had waited when the offsets were read (stalled or
 * pending), which the tables cannot change. {@link Reconciler} does the accounting. The hop before Kafka (the MQTT
 * broker's accepted positions against the raw topic) is reconciled by {@link IngestHopCheck} over a window that spans
 * the whole verification.
 */
public final class StackVerifier {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(2);
    private static final String EVENT_TIME = PositionField.EVENT_TIME.fieldName();
    private static final String VEHICLE_ID = PositionField.VEHICLE_ID.fieldName();
    /** The columns after the key that {@link FixContent} covers, in the order of {@link Position}'s components. */
    private static final List<PositionField> CONTENT_COLUMNS = List.of(
            PositionField.LATITUDE,
            PositionField.LONGITUDE,
            PositionField.SPEED_KMH,
            PositionField.HEADING_DEG,
            PositionField.ALTITUDE_M,
            PositionField.ACCURACY_M,
            PositionField.SATELLITES,
            PositionField.BATTERY_LEVEL);

    /** The shortest window over which the hop before Kafka is reconciled ({@code fleet verify --hop-window}). */
    public static final Duration DEFAULT_HOP_WINDOW = Duration.ofSeconds(10);

    private final Endpoints endpoints;
    private final PositionCodec codec;
    private final VerifyConfig config;
    private final Consumer<String> progress;

    /**
     * @param codec decodes raw payloads as the pipeline does (the same schemas)
     * @param progress receives a line now and then during long steps
     */
    public StackVerifier(Endpoints endpoints, PositionCodec codec, VerifyConfig config, Consumer<String> progress) {
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.config = requireNonNull(config, "config is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Reconciles every stage for the scope over a {@link #DEFAULT_HOP_WINDOW}, without waiting first. */
    public VerifyReport verify(VerifyScope scope, int sampleLimit) {
        return verify(scope, sampleLimit, Optional.empty(), DEFAULT_HOP_WINDOW);
    }

    /**
     * Reconciles every stage for the scope; see the class comment.
     *
     * @param pipelineWait how {@link #awaitPipeline} went, when the caller waited first
     * @param hopWindow the hop before Kafka is reconciled over the verification's own duration, at least this long
     */
    public VerifyReport verify(
            VerifyScope scope, int sampleLimit, Optional<PipelineWait> pipelineWait, Duration hopWindow) {
        long startedAt = System.nanoTime();
        IngestHopCheck hop = new IngestHopCheck(endpoints.kafkaBootstrapServers(), endpoints.mqttMetricsUri());
        IngestHopCheck.Start hopStart = hop.start();
        PipelineOffsets committed = committedOffsets();
        progress.accept("Pipeline (consumer group " + endpoints.pipelineConsumerGroup() + ") committed offsets "
                + committed.offsets() + "; records waiting longer than "
                + config.stalledAfter().toSeconds()
                + " s for it are stalled");
        TableRows positions = readPositions(scope);
        TableRows rejected = readRejected(scope);
        Reconciler reconciler = new Reconciler(committed, config.stalledAfter(), positions, rejected, sampleLimit);
        readRawTopic(scope, reconciler);
        boolean rechecked = false;
        if (reconciler.hasUnaccounted()) {
            progress.accept("Some records look lost or conflicting; reading the tables again in case their commit had"
                    + " not landed");
            reconciler.recheck(readPositions(scope), readRejected(scope));
            rechecked = true;
        }
        Reconciliation reconciliation = reconciler.result();
        RedisComparison redis = compareRedis(scope, sampleLimit);
        progress.accept("Reconciling the MQTT broker's accepted positions with Kafka over at least "
                + hopWindow.toSeconds() + " s ...");
        hop.awaitWindow(hopStart, hopWindow);
        IngestHopReconciliation ingestHop = hop.finish(hopStart);
        return new VerifyReport(
                scope,
                reconciliation,
                countIngestRefused(scope),
                redis,
                new FlinkInspector(endpoints.flinkRest()).pipelineRestarts(),
                StackStatusFile.read(StackStatusFile.location(endpoints.dataDirectory())),
                pipelineWait,
                rechecked,
                Duration.ofNanos(System.nanoTime() - startedAt),
                ingestHop);
    }

    /**
     * Waits until the pipeline has committed past every record the raw topic holds now, so that a verification right
     * after a load leaves nothing in flight. Not catching up is a failure of the verification ({@link
     * PipelineWait#caughtUp()}).
     */
    public PipelineWait awaitPipeline(Duration timeout) {
        Map<Integer, Long> target = pastLastRecords();
        progress.accept(
                "Waiting up to " + timeout.toSeconds() + " s for the pipeline to commit past offsets " + target);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<Integer, Long> committed = committedOffsets().offsets();
            long behind = target.entrySet().stream()
                    .mapToLong(entry -> Math.max(0, entry.getValue() - committed.getOrDefault(entry.getKey(), 0L)))
                    .sum();
            PipelineWait outcome = new PipelineWait(timeout, target, committed, behind);
            if (outcome.caughtUp()) {
                progress.accept("The pipeline has committed past every record");
                return outcome;
            }
            if (System.nanoTime() - deadline > 0) {
                progress.accept("FAILED: " + outcome.describe());
                return outcome;
            }
            progress.accept(String.format("  %,d records in flight", behind));
            try {
                TimeUnit.MILLISECONDS.sleep(PROGRESS_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new VerifyException("Interrupted while waiting for the pipeline", e);
            }
        }
    }

    /**
     * Per partition, the offset after its last committed record. Not simply the end offset: a transaction's commit
     * marker takes an offset too, and a reader that has read the last record may have committed the marker's offset,
     * not the one after it.
     */
    private Map<Integer, Long> pastLastRecords() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = rawPartitions(consumer);
            Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<Integer, Long> past = new HashMap<>();
            for (TopicPartition partition : partitions) {
                past.put(
                        partition.partition(),
                        pastLastRecord(consumer, partition, beginning.get(partition), end.get(partition)));
            }
            return past;
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new VerifyException(
                    "Cannot read the end of " + Topics.RAW_POSITIONS + " from Kafka at "
                            + endpoints.kafkaBootstrapServers() + ": " + e.getMessage(),
                    e);
        }
    }

    private static long pastLastRecord(
            KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long beginning, long end) {
        consumer.assign(List.of(partition));
        for (long window = 64; ; window *= 4) {
            long start = Math.max(beginning, end - window);
            consumer.seek(partition, start);
            long last = -1;
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                    if (record.offset() < end) {
                        last = Math.max(last, record.offset());
                    }
                }
            }
            if (last >= 0) {
                return last + 1;
            }
            if (start == beginning) {
                return 0; // no record at all: nothing to wait for
            }
        }
    }

    private static List<TopicPartition> rawPartitions(KafkaConsumer<byte[], byte[]> consumer) {
        return TopicRange.partitions(consumer, Topics.RAW_POSITIONS, TIMEOUT);
    }

    private Properties consumerProperties() {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafkaBootstrapServers());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, "fleet-verify-" + UUID.randomUUID());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // The end of a read_committed consumer is the last stable offset: open transactions are not waited for.
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return properties;
    }

    private PipelineOffsets committedOffsets() {
        // Taken before the request: the offsets are at least this recent, so no record's wait is overstated.
        Instant readAt = Instant.now();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                endpoints.kafkaBootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) TIMEOUT.toMillis()))) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                            endpoints.pipelineConsumerGroup())
                    .partitionsToOffsetAndMetadata()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, Long> committed = new HashMap<>();
            offsets.forEach((partition, offset) -> {
                if (partition.topic().equals(Topics.RAW_POSITIONS) && offset != null) {
                    committed.put(partition.partition(), offset.offset());
                }
            });
            return new PipelineOffsets(committed, readAt);
        } catch (ExecutionException | TimeoutException e) {
            throw new VerifyException(
                    "Cannot read the pipeline's committed offsets from Kafka at " + endpoints.kafkaBootstrapServers()
                            + ": " + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerifyException("Interrupted while reading the pipeline's committed offsets", e);
        }
    }

    /**
     * Every row with its lineage and the columns of its {@link FixContent}, so that a resend is told from a conflicting
     * one as the pipeline tells them apart.
     */
    private TableRows readPositions(VerifyScope scope) {
        List<Object> parameters = new ArrayList<>();
        String sql = "SELECT " + LineageColumns.SOURCE_PARTITION + ", " + LineageColumns.SOURCE_OFFSET + ", "
                + VEHICLE_ID + ", " + micros(EVENT_TIME) + ", "
                + String.join(
                        ", ",
                        CONTENT_COLUMNS.stream().map(PositionField::fieldName).toList()) + " FROM "
                + Tables.qualified(Tables.POSITIONS) + " WHERE " + timePredicate(EVENT_TIME, scope, parameters)
                + vehiclePredicate(scope, parameters);
        TableRows.Builder rows = TableRows.builder();
        query(Tables.POSITIONS, sql, parameters, result -> {
            Position stored = new Position(
                    result.getString(3),
                    new FixKey(result.getString(3), result.getLong(4)).eventTime(),
                    result.getDouble(5),
                    result.getDouble(6),
                    result.getDouble(7),
                    result.getDouble(8),
                    nullableDouble(result, 9),
                    nullableDouble(result, 10),
                    nullableInteger(result, 11),
                    nullableDouble(result, 12));
            rows.position(FixContent.of(stored), result.getInt(1), result.getLong(2));
        });
        return rows.build();
    }

    private static Double nullableDouble(ResultSet result, int column) throws SQLException {
        double value = result.getDouble(column);
        return result.wasNull() ? null : value;
    }

    private static Integer nullableInteger(ResultSet result, int column) throws SQLException {
        int value = result.getInt(column);
        return result.wasNull() ? null : value;
    }

    private TableRows readRejected(VerifyScope scope) {
        List<Object> parameters = new ArrayList<>();
        parameters.add(Topics.RAW_POSITIONS);
        List<Object> eventTimeParameters = new ArrayList<>();
        String eventTimeInScope = timePredicate(RejectedColumns.EVENT_TIME, scope, eventTimeParameters);
        List<Object> ingestTimeParameters = new ArrayList<>();
        String ingestTimeInScope = timePredicate(RejectedColumns.INGEST_TIME, scope, ingestTimeParameters);
        parameters.addAll(eventTimeParameters);
        parameters.addAll(ingestTimeParameters);
        String sql = "SELECT " + RejectedColumns.VEHICLE_ID + ", " + micros(RejectedColumns.EVENT_TIME) + ", "
                + RejectedColumns.SOURCE_PARTITION + ", " + RejectedColumns.SOURCE_OFFSET + ", "
                + RejectedColumns.REASON + " FROM " + Tables.qualified(Tables.REJECTED_POSITIONS) + " WHERE "
                + RejectedColumns.SOURCE_TOPIC + " = ? AND ((" + RejectedColumns.EVENT_TIME + " IS NOT NULL AND "
                + eventTimeInScope + ") OR (" + RejectedColumns.EVENT_TIME + " IS NULL AND " + ingestTimeInScope
                + "))" + vehiclePredicate(scope, parameters);
        TableRows.Builder rows = TableRows.builder();
        query(Tables.REJECTED_POSITIONS, sql, parameters, result -> {
            String vehicle = result.getString(1);
            long eventMicros = result.getLong(2);
            boolean undecoded = result.wasNull(); // the event time is null when the payload never decoded
            boolean hasKey = vehicle != null && !undecoded;
            rows.rejected(
                    hasKey ? Optional.of(new FixKey(vehicle, eventMicros)) : Optional.empty(),
                    result.getInt(3),
                    result.getLong(4),
                    result.getString(5));
        });
        return rows.build();
    }

    /**
     * Epoch microseconds computed by Trino, so that millions of rows travel as numbers; exact for event times
     * before the year 2255 (a double holds 53 bits).
     */
    private static String micros(String column) {
        return "CAST(round(to_unixtime(" + column + ") * 1e6) AS bigint)";
    }

    private static String timePredicate(String column, VerifyScope scope, List<Object> parameters) {
        List<String> conditions = new ArrayList<>();
        scope.from().ifPresent(from -> {
            conditions.add(column + " >= from_iso8601_timestamp_nanos(?)");
            parameters.add(from.toString());
        });
        scope.to().ifPresent(to -> {
            conditions.add(column + " < from_iso8601_timestamp_nanos(?)");
            parameters.add(to.toString());
        });
        return conditions.isEmpty() ? "true" : String.join(" AND ", conditions);
    }

    private static String vehiclePredicate(VerifyScope scope, List<Object> parameters) {
        if (scope.vehiclePrefix().isEmpty()) {
            return "";
        }
        parameters.add(escapeLike(scope.vehiclePrefix().get()) + "%");
        return " AND " + VEHICLE_ID + " LIKE ? ESCAPE '\\'";
    }

    static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private void query(String table, String sql, List<Object> parameters, RowConsumer consumer) {
        progress.accept("Reading " + Tables.qualified(table) + " through Trino ...");
        long rows = 0;
        long lastReport = System.nanoTime();
        try (Connection connection = trino();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    consumer.accept(result);
                    rows++;
                    if (System.nanoTime() - lastReport > PROGRESS_INTERVAL.toNanos()) {
                        progress.accept(String.format("  %s: %,d rows so far", Tables.qualified(table), rows));
                        lastReport = System.nanoTime();
                    }
                }
            }
        } catch (SQLException e) {
            throw new VerifyException(
                    "Cannot read " + Tables.qualified(table) + " through Trino at "
                            + endpoints.trino().serverUri() + ": " + e.getMessage(),
                    e);
        }
        progress.accept(String.format("  %s: %,d rows", Tables.qualified(table), rows));
    }

    private Connection trino() throws SQLException {
        return endpoints.trino().withSource("fleet-verify").connect();
    }

    private void readRawTopic(VerifyScope scope, Reconciler reconciler) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = rawPartitions(consumer);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long total = partitions.stream()
                    .mapToLong(partition -> end.get(partition) - beginning.get(partition))
                    .sum();
            progress.accept(String.format("Reading %s (read_committed): %,d offsets ...", Topics.RAW_POSITIONS, total));
            long read = 0;
            long lastReport = System.nanoTime();
            while (TopicRange.unread(consumer, partitions, end)) {
                read += TopicRange.pollBelowEnd(consumer, end, POLL_TIMEOUT, record -> {
                    toRawRecord(record, scope).ifPresent(reconciler::accept);
                    return true;
                });
                if (System.nanoTime() - lastReport > PROGRESS_INTERVAL.toNanos()) {
                    progress.accept(String.format(
                            "  %s: %,d of about %,d records (%d%%)",
                            Topics.RAW_POSITIONS, read, total, total == 0 ? 100 : read * 100 / total));
                    lastReport = System.nanoTime();
                }
            }
            progress.accept(String.format("  %s: %,d records", Topics.RAW_POSITIONS, read));
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new VerifyException(
                    "Cannot read " + Topics.RAW_POSITIONS + " from Kafka at " + endpoints.kafkaBootstrapServers() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * MQTT messages the ingest connector could not write to Kafka and dead-lettered instead ({@link
     * RejectionReason#INGEST_REFUSED}): received, never in the raw topic, and kept. They carry no decoded event time, so
     * a time scope selects them by their rejection time; a vehicle prefix by their record key.
     */
    private long countIngestRefused(VerifyScope scope) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = TopicRange.partitions(consumer, Topics.DLQ_POSITIONS, TIMEOUT);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long refused = 0;
            while (TopicRange.unread(consumer, partitions, end)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                    if (isIngestRefused(record, scope)) {
                        refused++;
                    }
                }
            }
            return refused;
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new VerifyException(
                    "Cannot read " + Topics.DLQ_POSITIONS + " from Kafka at " + endpoints.kafkaBootstrapServers() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    static boolean isIngestRefused(ConsumerRecord<byte[], byte[]> record, VerifyScope scope) {
        Header reason = record.headers().lastHeader(MessageHeaders.DLQ_REASON);
        if (reason == null
                || !RejectionReason.INGEST_REFUSED.name().equals(new String(reason.value(), StandardCharsets.UTF_8))) {
            return false;
        }
        Optional<String> vehicle =
                Optional.ofNullable(record.key()).map(key -> new String(key, StandardCharsets.UTF_8));
        return scope.includesVehicle(vehicle) && scope.includesTime(Instant.ofEpochMilli(record.timestamp()));
    }

    /** The record as the reconciliation sees it, or empty when it is outside the scope. */
    Optional<RawTopicRecord> toRawRecord(ConsumerRecord<byte[], byte[]> record, VerifyScope scope) {
        Optional<FixContent> fix = decode(record.value());
        Optional<FixKey> key = fix.map(FixContent::key);
        if (key.isPresent()) {
            if (!scope.includesVehicle(Optional.of(key.get().vehicleId()))
                    || !scope.includesTime(key.get().eventTime())) {
                return Optional.empty();
            }
        } else {
            Optional<String> kafkaKey =
                    Optional.ofNullable(record.key()).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
            if (!scope.includesVehicle(kafkaKey) || !scope.includesTime(Instant.ofEpochMilli(record.timestamp()))) {
                return Optional.empty();
            }
        }
        // The connector sets the timestamp to its receive time; a reprocessed record keeps the original one.
        Optional<Instant> receivedAt = record.headers().lastHeader(MessageHeaders.REPROCESSED_FROM) == null
                ? Optional.of(Instant.ofEpochMilli(record.timestamp()))
                : Optional.empty();
        return Optional.of(new RawTopicRecord(record.partition(), record.offset(), receivedAt, fix));
    }

    private Optional<FixContent> decode(byte[] payload) {
        return content(codec::decode, payload);
    }

    /** The key and content of a raw payload, or empty when it does not decode (see {@link RawPayloads}). */
    static Optional<FixContent> content(Function<byte[], DecodeResult> decoder, byte[] payload) {
        return RawPayloads.position(decoder, payload).map(FixContent::of);
    }

    private RedisComparison compareRedis(VerifyScope scope, int sampleLimit) {
        // The newest position over the whole history of each vehicle in scope: Redis holds the newest, whatever the
        // time range.
        List<Object> parameters = new ArrayList<>();
        String sql = "SELECT " + VEHICLE_ID + ", max(" + micros(EVENT_TIME) + ") FROM "
                + Tables.qualified(Tables.POSITIONS) + " WHERE true" + vehiclePredicate(scope, parameters)
                + " GROUP BY " + VEHICLE_ID;
        Map<String, Long> newest = new LinkedHashMap<>();
        query(Tables.POSITIONS, sql, parameters, result -> newest.put(result.getString(1), result.getLong(2)));
        progress.accept(String.format("Reading the current state of %,d vehicles from Redis ...", newest.size()));
        Map<String, Optional<Long>> inRedis = new HashMap<>();
        try (Jedis jedis = RedisConnections.single(URI.create(endpoints.redisUri()), TIMEOUT)) {
            List<String> vehicles = new ArrayList<>(newest.keySet());
            for (int start = 0; start < vehicles.size(); start += 1000) {
                List<String> batch = vehicles.subList(start, Math.min(vehicles.size(), start + 1000));
                Pipeline pipeline = jedis.pipelined();
                Map<String, Response<String>> responses = new LinkedHashMap<>();
                for (String vehicle : batch) {
                    responses.put(
                            vehicle,
                            pipeline.hget(RedisKeys.vehicle(vehicle), RedisKeys.VehicleField.EVENT_TIME.field()));
                }
                pipeline.sync();
                responses.forEach((vehicle, response) ->
                        inRedis.put(vehicle, Optional.ofNullable(response.get()).map(Long::parseLong)));
            }
        } catch (redis.clients.jedis.exceptions.JedisException e) {
            throw new VerifyException(
                    "Cannot read the current state from Redis at " + endpoints.redisEndpoint() + ": " + e.getMessage(),
                    e);
        }
        return RedisComparison.compare(newest, inRedis, sampleLimit, Instant.now(), endpoints.redisVehicleTtl());
    }

    @FunctionalInterface
    private interface RowConsumer {
        void accept(ResultSet row) throws SQLException;
    }

    /**
     * Where the stack's servers are.
     *
     * @param trino a read-only Trino user's connections
     * @param redisUri may carry credentials; never printed
     * @param redisEndpoint the Redis address without credentials, for messages
     * @param redisVehicleTtl the pipeline's {@code pipeline.redis-vehicle-ttl}: a vehicle unseen for longer may have
     *     expired from Redis
     * @param pipelineConsumerGroup the pipeline's Kafka consumer group ({@code pipeline.consumer-group})
     * @param dataDirectory the stack's data folder, where the supervisor's status file is
     * @param mqttMetricsUri the MQTT broker's Prometheus endpoint, for the hop before Kafka; empty when unknown
     */
    public record Endpoints(
            String kafkaBootstrapServers,
            TrinoConnectionFactory trino,
            String redisUri,
            String redisEndpoint,
            FlinkRestClient flinkRest,
            Duration redisVehicleTtl,
            String pipelineConsumerGroup,
            Path dataDirectory,
            Optional<URI> mqttMetricsUri) {
        public Endpoints {
            requireNonNull(kafkaBootstrapServers, "kafkaBootstrapServers is null");
            requireNonNull(trino, "trino is null");
            requireNonNull(redisUri, "redisUri is null");
            requireNonNull(redisEndpoint, "redisEndpoint is null");
            requireNonNull(flinkRest, "flinkRest is null");
            requireNonNull(redisVehicleTtl, "redisVehicleTtl is null");
            requireNonNull(pipelineConsumerGroup, "pipelineConsumerGroup is null");
            requireNonNull(dataDirectory, "dataDirectory is null");
            requireNonNull(mqttMetricsUri, "mqttMetricsUri is null");
        }

        @Override
        public String toString() {
            return "Endpoints{kafka=" + kafkaBootstrapServers + ", trino=" + trino.serverUri() + ", redis="
                    + redisEndpoint + ", flink=" + flinkRest.restUri() + ", group=" + pipelineConsumerGroup + "}";
        }
    }

    /** A stage could not be read; the message names the server and what to check. */
    public static final class VerifyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public VerifyException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
