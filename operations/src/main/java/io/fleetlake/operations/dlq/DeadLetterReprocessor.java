package io.fleetlake.operations.dlq;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.RecordFailures;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.validation.PositionValidator;
import io.fleetlake.validation.Rejection;
import io.fleetlake.validation.ValidationRules;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds dead-lettered records that pass the current rules back into the pipeline.
 *
 * <p>Selected records (by reason and rejection time) are checked with the current stateless rules first, so records
 * that would fail again stay where they are; the others are republished to {@link Topics#RAW_POSITIONS} with their
 * original key, bytes, receive timestamp and MQTT headers, so the pipeline judges them exactly as if they arrived now
 * from the device (the stateful rules, resends and conflicts included) and time rules give the same verdict as the
 * first time. Each republished record and its entry in the ledger topic {@link Topics#DLQ_REPROCESSED} are written in
 * one Kafka transaction, and records already in the ledger are skipped: running the same reprocessing twice republishes
 * nothing the second time, and a run that dies midway leaves neither half of an unfinished batch behind. The fixed
 * transactional id also fences a second run started at the same time.
 */
public final class DeadLetterReprocessor {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterReprocessor.class);
    private static final String TRANSACTIONAL_ID = "fleet-dlq-reprocess";
    private static final int RECORDS_PER_TRANSACTION = 500;

    private final String bootstrapServers;
    private final PositionValidator validator;
    private final Function<byte[], DecodeResult> decoder;

    public DeadLetterReprocessor(String bootstrapServers, ValidationRules rules) {
        this(
                bootstrapServers,
                rules,
                new PositionCodec(requireNonNull(rules, "rules is null").schemas())::decode);
    }

    /** With another decoder than the codec of the rules' schemas; a seam for tests. */
    DeadLetterReprocessor(String bootstrapServers, ValidationRules rules, Function<byte[], DecodeResult> decoder) {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.validator = new PositionValidator(requireNonNull(rules, "rules is null"));
        this.decoder = requireNonNull(decoder, "decoder is null");
    }

    /** Selects, re-validates and (unless {@code dryRun}) republishes; see the class comment. */
    public Outcome reprocess(Selection selection, boolean dryRun) {
        KafkaInspector kafka = new KafkaInspector(bootstrapServers);
        Set<String> ledger = new HashSet<>();
        kafka.forEachRecord(
                Topics.DLQ_REPROCESSED, record -> ledger.add(new String(record.key(), StandardCharsets.UTF_8)));

        List<ConsumerRecord<byte[], byte[]>> passing = new ArrayList<>();
        Map<RejectionReason, Long> stillRejected = new EnumMap<>(RejectionReason.class);
        long[] selected = {0};
        long[] alreadyReprocessed = {0};
        long[] notOriginal = {0};
        kafka.forEachRecord(Topics.DLQ_POSITIONS, record -> {
            if (!selection.matches(reason(record), rejectedAt(record))) {
                return;
            }
            selected[0]++;
            if (ledger.contains(ledgerKey(record))) {
                alreadyReprocessed[0]++;
                return;
            }
            Optional<String> notReprocessable = notReprocessable(record);
            if (notReprocessable.isPresent()) {
                notOriginal[0]++;
                LOG.warn("Dead letter {} cannot be reprocessed: {}", ledgerKey(record), notReprocessable.get());
                return;
            }
            Optional<Rejection> verdict = verdict(record);
            if (verdict.isPresent()) {
                stillRejected.merge(verdict.get().reason(), 1L, Long::sum);
            } else {
                passing.add(record);
            }
        });
        if (!dryRun && !passing.isEmpty()) {
            republish(passing);
        }
        Outcome outcome = new Outcome(
                selected[0],
                alreadyReprocessed[0],
                notOriginal[0],
                dryRun ? 0 : passing.size(),
                passing.size(),
                stillRejected);
        LOG.info("Reprocessing {}: {}", selection, outcome);
        return outcome;
    }

    /**
     * Why a dead letter's value is not the payload the device sent, if it is not: an empty value, or a preview of a
     * payload too large for Kafka (the ingest connector's {@code INGEST_REFUSED}) or for a dead letter with its
     * headers. Republishing a preview would feed the pipeline bytes no device sent.
     */
    static Optional<String> notReprocessable(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null || record.value().length == 0) {
            return Optional.of("it has no value");
        }
        if (Boolean.parseBoolean(headerText(record, MessageHeaders.DLQ_TRUNCATED))) {
            String size = headerText(record, MessageHeaders.DLQ_ORIGINAL_SIZE);
            return Optional.of("its value is only the first " + record.value().length + " bytes of a payload of "
                    + (size.isEmpty() ? "unknown size" : size + " bytes"));
        }
        return Optional.empty();
    }

    /**
     * What the current stateless rules say of the dead letter: empty when it passes. A failure of a rule or of the
     * decoder on this one record that {@link RecordFailures} counts as the record's (an exception, a {@link
     * StackOverflowError}, a heap {@link OutOfMemoryError}) is a {@link RejectionReason#PROCESSING_ERROR}: the record
     * stays in the dead-letter topic, logged, and the run goes on with the next one.
     */
    Optional<Rejection> verdict(ConsumerRecord<byte[], byte[]> record) {
        try {
            return judge(record);
        } catch (Throwable failure) {
            RecordFailures.rethrowUnlessPerRecord(failure);
            LOG.warn("Dead letter {} cannot be judged; it stays in the dead-letter topic", ledgerKey(record), failure);
            return Optional.of(new Rejection(
                    RejectionReason.PROCESSING_ERROR,
                    "reprocessing failed: " + failure.getClass().getName()));
        }
    }

    private Optional<Rejection> judge(ConsumerRecord<byte[], byte[]> record) {
        Optional<Rejection> size = validator.checkPayloadSize(record.value().length);
        if (size.isPresent()) {
            return size;
        }
        DecodeResult decoded = decoder.apply(record.value());
        if (decoded instanceof DecodeResult.Rejected rejected) {
            return Optional.of(new Rejection(rejected.reason(), rejected.detail()));
        }
        // The record's timestamp is the original receive time (the dead-letter sink keeps it), and the MQTT topic
        // header the original one: the same checks as the pipeline's, the topic's vehicle id included.
        String mqttTopic = headerText(record, MessageHeaders.MQTT_TOPIC);
        return validator.validate(
                ((DecodeResult.Decoded) decoded).position(),
                Instant.ofEpochMilli(record.timestamp()),
                mqttTopic.isEmpty() ? null : mqttTopic);
    }

    private void republish(List<ConsumerRecord<byte[], byte[]>> records) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties())) {
            producer.initTransactions();
            for (int start = 0; start < records.size(); start += RECORDS_PER_TRANSACTION) {
                producer.beginTransaction();
                for (ConsumerRecord<byte[], byte[]> record :
                        records.subList(start, Math.min(records.size(), start + RECORDS_PER_TRANSACTION))) {
                    producer.send(new ProducerRecord<>(
                            Topics.RAW_POSITIONS,
                            null,
                            record.timestamp(),
                            record.key(),
                            record.value(),
                            rawHeaders(record)));
                    producer.send(new ProducerRecord<>(
                            Topics.DLQ_REPROCESSED,
                            ledgerKey(record).getBytes(StandardCharsets.UTF_8),
                            ledgerValue(record)));
                }
                producer.commitTransaction();
            }
        }
    }

    private static List<Header> rawHeaders(ConsumerRecord<byte[], byte[]> record) {
        List<Header> headers = new ArrayList<>();
        for (String name : List.of(MessageHeaders.MQTT_TOPIC, MessageHeaders.MQTT_RECEIVED_AT)) {
            Header header = record.headers().lastHeader(name);
            if (header != null) {
                headers.add(header);
            }
        }
        headers.add(new RecordHeader(
                MessageHeaders.REPROCESSED_FROM, ledgerKey(record).getBytes(StandardCharsets.UTF_8)));
        return headers;
    }

    private static byte[] ledgerValue(ConsumerRecord<byte[], byte[]> record) {
        return ("{\"reprocessed_at\":\"" + Instant.now() + "\",\"reason\":\""
                        + headerText(record, MessageHeaders.DLQ_REASON) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String ledgerKey(ConsumerRecord<byte[], byte[]> record) {
        return record.topic() + "/" + record.partition() + "/" + record.offset();
    }

    private static Optional<RejectionReason> reason(ConsumerRecord<byte[], byte[]> record) {
        String name = headerText(record, MessageHeaders.DLQ_REASON);
        try {
            return Optional.of(RejectionReason.valueOf(name));
        } catch (IllegalArgumentException e) {
            LOG.warn("Dead-letter record {} has no known reason ('{}'); it is not selected", ledgerKey(record), name);
            return Optional.empty();
        }
    }

    private static Instant rejectedAt(ConsumerRecord<byte[], byte[]> record) {
        String millis = headerText(record, MessageHeaders.DLQ_REJECTED_AT);
        return millis.isEmpty()
                ? Instant.ofEpochMilli(record.timestamp())
                : Instant.ofEpochMilli(Long.parseLong(millis));
    }

    private static String headerText(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
    }

    private Properties producerProperties() {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TRANSACTIONAL_ID);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return properties;
    }

    /**
     * Which dead-lettered records to reprocess.
     *
     * @param reasons the rejection reasons to select; never empty
     * @param since only records rejected at or after this instant, if present
     */
    public record Selection(Set<RejectionReason> reasons, Optional<Instant> since) {
        public Selection {
            reasons = Set.copyOf(requireNonNull(reasons, "reasons is null"));
            requireNonNull(since, "since is null");
            if (reasons.isEmpty()) {
                throw new IllegalArgumentException("Name at least one rejection reason to reprocess");
            }
        }

        boolean matches(Optional<RejectionReason> reason, Instant rejectedAt) {
            return reason.isPresent()
                    && reasons.contains(reason.get())
                    && since.map(start -> !rejectedAt.isBefore(start)).orElse(true);
        }

        @Override
        public String toString() {
            return "reasons " + reasons + since.map(start -> " since " + start).orElse("");
        }
    }

    /**
     * What a reprocessing run found and did.
     *
     * @param selected dead-lettered records matching the selection
     * @param alreadyReprocessed of those, records an earlier run already republished
     * @param notReprocessable of those, records whose value is not the original payload (empty, or a truncated
     *     preview of a payload too large for Kafka); they stay in the dead-letter topic
     * @param republished records written back to the raw topic by this run
     * @param passing records that pass the current stateless rules (equal to republished unless it was a dry run)
     * @param stillRejected records that would be rejected again, by the reason they fail now
     */
    public record Outcome(
            long selected,
            long alreadyReprocessed,
            long notReprocessable,
            long republished,
            long passing,
            Map<RejectionReason, Long> stillRejected) {
        public Outcome {
            stillRejected = Map.copyOf(requireNonNull(stillRejected, "stillRejected is null"));
        }
    }
}
