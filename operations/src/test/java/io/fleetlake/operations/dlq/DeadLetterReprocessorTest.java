package io.fleetlake.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.operations.FailingDecoders;
import io.fleetlake.validation.Rejection;
import io.fleetlake.validation.ValidationRules;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The per-record decisions of reprocessing, without a Kafka broker: the IT covers the transactions. */
class DeadLetterReprocessorTest {
    private static final Instant RECEIVED_AT = Instant.parse("2026-11-30T10:00:00Z");
    private static final Position MADRID =
            new Position("VH-0042", RECEIVED_AT.minusSeconds(2), 40.4168, -3.7038, 42.0, 90.0, null, null, null, null);

    /** Building the bundled region takes a moment: once per class. */
    private static final ValidationRules RULES = ValidationRules.defaults();

    private final DeadLetterReprocessor reprocessor = new DeadLetterReprocessor("127.0.0.1:9", RULES);
    private final PositionCodec codec = PositionCodec.bundled();

    @Test
    void aTruncatedPreviewIsNeverRepublished() {
        ConsumerRecord<byte[], byte[]> preview = deadLetter(
                "{\"vehicle_id\":\"VH-0042\"".getBytes(StandardCharsets.UTF_8),
                Map.of(MessageHeaders.DLQ_TRUNCATED, "true", MessageHeaders.DLQ_ORIGINAL_SIZE, "1048577"));

        assertThat(DeadLetterReprocessor.notReprocessable(preview))
                .hasValueSatisfying(why -> assertThat(why).contains("1048577 bytes"));
    }

    @Test
    void aDeadLetterWithoutValueIsNotReprocessable() {
        assertThat(DeadLetterReprocessor.notReprocessable(deadLetter(null, Map.of())))
                .hasValue("it has no value");
    }

    @Test
    void aWholePayloadIsReprocessableAndJudgedByTheCurrentRules() {
        ConsumerRecord<byte[], byte[]> whole = deadLetter(
                codec.encodeJson(MADRID),
                Map.of(MessageHeaders.DLQ_TRUNCATED, "false", MessageHeaders.MQTT_TOPIC, "fleet/VH-0042/position"));

        assertThat(DeadLetterReprocessor.notReprocessable(whole)).isEmpty();
        assertThat(reprocessor.verdict(whole)).isEmpty();
    }

    @Test
    void theTopicOfTheOriginalMessageIsCheckedAsThePipelineChecksIt() {
        ConsumerRecord<byte[], byte[]> spoofed =
                deadLetter(codec.encodeJson(MADRID), Map.of(MessageHeaders.MQTT_TOPIC, "fleet/VH-0001/position"));

        assertThat(reprocessor.verdict(spoofed).map(Rejection::reason))
                .isEqualTo(Optional.of(RejectionReason.VEHICLE_ID_MISMATCH));
    }

    /**
     * The reported poison pill: a known fingerprint and a {@code vehicle_id} that declares two billion bytes. The
     * codec refuses it before Avro allocates, so reprocessing judges it like any malformed payload.
     */
    @Test
    void aPayloadDeclaringALengthItCannotHoldIsStillMalformed() {
        byte[] poison = FailingDecoders.declaringTwoBillionBytes(codec.encodeAvro(MADRID));

        assertThat(reprocessor.verdict(deadLetter(poison, Map.of()))).hasValueSatisfying(rejection -> {
            assertThat(rejection.reason()).isEqualTo(RejectionReason.MALFORMED_PAYLOAD);
            assertThat(rejection.detail())
                    .isEqualTo("Corrupt Avro body for schema version 2: field vehicle_id declares a string of"
                            + " 2000000000 bytes, but 0 bytes remain");
        });
    }

    /**
     * Whatever fails on one dead letter (an exception, a real {@link OutOfMemoryError}, a real {@link
     * StackOverflowError}), that record is a {@code PROCESSING_ERROR} and stays; the next one is judged.
     */
    @ParameterizedTest(name = "{0}")
    @FieldSource("io.fleetlake.operations.FailingDecoders#PER_RECORD_KINDS")
    void aFailureOnOneDeadLetterKeepsItAndTheNextOneIsJudged(String kind) {
        DeadLetterReprocessor failing = new DeadLetterReprocessor("127.0.0.1:9", RULES, failingOnX(kind));
        ConsumerRecord<byte[], byte[]> poison = deadLetter("X".getBytes(StandardCharsets.US_ASCII), Map.of());
        ConsumerRecord<byte[], byte[]> whole =
                deadLetter(codec.encodeJson(MADRID), Map.of(MessageHeaders.MQTT_TOPIC, "fleet/VH-0042/position"));

        assertThat(failing.verdict(poison).map(Rejection::reason)).hasValue(RejectionReason.PROCESSING_ERROR);
        assertThat(failing.verdict(whole)).isEmpty();
    }

    @Test
    void anErrorNoRecordCausesStopsTheRun() {
        DeadLetterReprocessor failing = new DeadLetterReprocessor("127.0.0.1:9", RULES, failingOnX("linkage"));

        assertThatThrownBy(() -> failing.verdict(deadLetter("X".getBytes(StandardCharsets.US_ASCII), Map.of())))
                .isInstanceOf(NoClassDefFoundError.class);
    }

    private Function<byte[], DecodeResult> failingOnX(String kind) {
        return FailingDecoders.failingOnX(codec, kind);
    }

    private static ConsumerRecord<byte[], byte[]> deadLetter(byte[] value, Map<String, String> headers) {
        RecordHeaders recordHeaders = new RecordHeaders();
        headers.forEach(
                (name, text) -> recordHeaders.add(new RecordHeader(name, text.getBytes(StandardCharsets.UTF_8))));
        return new ConsumerRecord<>(
                Topics.DLQ_POSITIONS,
                0,
                7L,
                RECEIVED_AT.toEpochMilli(),
                TimestampType.CREATE_TIME,
                -1,
                value == null ? -1 : value.length,
                "VH-0042".getBytes(StandardCharsets.UTF_8),
                value,
                recordHeaders,
                Optional.empty());
    }
}
