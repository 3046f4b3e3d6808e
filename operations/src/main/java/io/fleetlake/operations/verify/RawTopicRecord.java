package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Topics;
import java.time.Instant;
import java.util.Optional;

/**
 * One record of the raw positions topic as {@code fleet verify} sees it.
 *
 * @param partition its partition of {@link Topics#RAW_POSITIONS}
 * @param offset its offset there
 * @param receivedAt when the ingest connector received it from MQTT (the record's Kafka timestamp, which the connector
 *     sets to its receive time, as in the {@code mqtt.received-at} header), and so, within a Kafka transaction, when it
 *     entered the raw topic; empty for a record republished by {@code fleet dlq reprocess}, which keeps the original
 *     receive time and so says nothing about how long it has been waiting
 * @param fix its key and content decoded with the pipeline's codec; empty when the payload does not decode
 */
public record RawTopicRecord(int partition, long offset, Optional<Instant> receivedAt, Optional<FixContent> fix) {
    public RawTopicRecord {
        requireNonNull(receivedAt, "receivedAt is null");
        requireNonNull(fix, "fix is null");
    }

    public Optional<FixKey> key() {
        return fix.map(FixContent::key);
    }

    /** For example {@code gps.raw.positions/1/4711}. */
    public String location() {
        return Topics.RAW_POSITIONS + "/" + partition + "/" + offset;
    }
}
