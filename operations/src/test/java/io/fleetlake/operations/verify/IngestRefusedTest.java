package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class IngestRefusedTest {
    private static final Instant REFUSED_AT = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void countsOnlyTheConnectorsDeadLettersInsideTheScope() {
        VerifyScope everything = VerifyScope.everything();
        VerifyScope otherVehicles = new VerifyScope(Optional.empty(), Optional.empty(), Optional.of("VH-9"));
        VerifyScope earlier = new VerifyScope(Optional.empty(), Optional.of(REFUSED_AT), Optional.empty());

        assertThat(StackVerifier.isIngestRefused(deadLetter(RejectionReason.INGEST_REFUSED), everything))
                .isTrue();
        assertThat(StackVerifier.isIngestRefused(deadLetter(RejectionReason.MALFORMED_PAYLOAD), everything))
                .as("the pipeline's dead letters come from raw records, which the reconciliation counts")
                .isFalse();
        assertThat(StackVerifier.isIngestRefused(deadLetter(RejectionReason.INGEST_REFUSED), otherVehicles))
                .isFalse();
        assertThat(StackVerifier.isIngestRefused(deadLetter(RejectionReason.INGEST_REFUSED), earlier))
                .isFalse();
    }

    private static ConsumerRecord<byte[], byte[]> deadLetter(RejectionReason reason) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(MessageHeaders.DLQ_REASON, reason.name().getBytes(StandardCharsets.UTF_8)));
        byte[] preview = "{\"vehicle_id\":".getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(
                Topics.DLQ_POSITIONS,
                0,
                3L,
                REFUSED_AT.toEpochMilli(),
                TimestampType.CREATE_TIME,
                -1,
                preview.length,
                "VH-0042".getBytes(StandardCharsets.UTF_8),
                preview,
                headers,
                Optional.empty());
    }
}
