package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A raw record the pipeline refused, on its way to the dead-letter topic and {@code fleet.rejected_positions}. The raw
 * record is kept as read (key, value, headers, lineage) so that it can be reprocessed after a fix, whichever operator
 * rejected it.
 *
 * @param source the rejected record exactly as read from Kafka
 * @param reason stable rejection code
 * @param detail what exactly is wrong, for the person reading the dead letters
 * @param rejectedAt when the pipeline rejected it (processing time)
 * @param vehicleId the decoded vehicle id, else the Kafka key as UTF-8, else null
 * @param eventTime the decoded event time, or null when the payload was not decoded
 */
@TypeInfo(RejectedRecord.TypeInfoFactory.class)
public record RejectedRecord(
        RawRecord source,
        RejectionReason reason,
        String detail,
        Instant rejectedAt,
        String vehicleId,
        Instant eventTime) {
    public RejectedRecord {
        requireNonNull(source, "source is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(detail, "detail is null");
        requireNonNull(rejectedAt, "rejectedAt is null");
    }

    /** Rejects a record whose payload was not decoded: the vehicle id can only come from the Kafka key. */
    public static RejectedRecord undecoded(
            RawRecord source, RejectionReason reason, String detail, Instant rejectedAt) {
        return new RejectedRecord(source, reason, detail, rejectedAt, vehicleIdFromKey(source), null);
    }

    /** Rejects a decoded record: vehicle id and event time come from the payload. */
    public static RejectedRecord decoded(
            RawRecord source, Position position, RejectionReason reason, String detail, Instant rejectedAt) {
        return new RejectedRecord(source, reason, detail, rejectedAt, position.vehicleId(), position.eventTime());
    }

    /** Rejects a position after decoding, in a later operator. */
    public static RejectedRecord of(
            IngestedPosition position, RejectionReason reason, String detail, Instant rejectedAt) {
        return decoded(position.source(), position.position(), reason, detail, rejectedAt);
    }

    /** Size of the original payload in bytes; 0 for a record without a value. */
    public int payloadSize() {
        return source.value() == null ? 0 : source.value().length;
    }

    private static String vehicleIdFromKey(RawRecord source) {
        if (source.key() == null) {
            return null;
        }
        String key = new String(source.key(), StandardCharsets.UTF_8);
        return key.isBlank() ? null : key;
    }

    @Override
    public String toString() {
        return "RejectedRecord{" + reason + ": " + detail + ", vehicleId=" + vehicleId + ", eventTime=" + eventTime
                + ", rejectedAt=" + rejectedAt + ", source=" + source + "}";
    }

    /** Written by the pipeline's own serializer ({@link RecordSerializers}), never reflectively. */
    public static final class TypeInfoFactory
            extends org.apache.flink.api.common.typeinfo.TypeInfoFactory<RejectedRecord> {
        @Override
        public TypeInformation<RejectedRecord> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return RecordSerializers.REJECTED_RECORD;
        }
    }
}
