package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.model.Position;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A decoded position that passed the stateless rules, with the raw record it was decoded from. The raw record travels
 * along so that a later rejection (conflicting resend, implausible jump) dead-letters the original bytes, key, headers
 * and lineage exactly as a decode-time rejection does.
 *
 * @param position the decoded fix
 * @param source the raw record as read from Kafka; its payload is shared, never modified
 */
@TypeInfo(IngestedPosition.TypeInfoFactory.class)
public record IngestedPosition(Position position, RawRecord source) {
    public IngestedPosition {
        requireNonNull(position, "position is null");
        requireNonNull(source, "source is null");
    }

    public String vehicleId() {
        return position.vehicleId();
    }

    /** Raw topic partition the position was read from. */
    public int sourcePartition() {
        return source.partition();
    }

    /** Raw topic offset the position was read from. */
    public long sourceOffset() {
        return source.offset();
    }

    /** The Kafka record timestamp of the raw record: when the ingest connector received the MQTT message. */
    public Instant ingestTime() {
        return source.timestamp();
    }

    /** Written by the pipeline's own serializer ({@link RecordSerializers}), never reflectively. */
    public static final class TypeInfoFactory
            extends org.apache.flink.api.common.typeinfo.TypeInfoFactory<IngestedPosition> {
        @Override
        public TypeInformation<IngestedPosition> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return RecordSerializers.INGESTED_POSITION;
        }
    }
}
