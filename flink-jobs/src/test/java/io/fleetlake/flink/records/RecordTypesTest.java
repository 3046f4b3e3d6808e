package io.fleetlake.flink.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.functions.DeduplicateResends;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import java.time.Instant;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records cross the network between operators and live in checkpoints (keyed state): they must be Flink POJOs, not
 * Kryo, so that their serialisation is efficient and their state can evolve.
 */
class RecordTypesTest {
    static Stream<Object> records() {
        return Stream.of(
                TestRecords.avro(TestRecords.position("VH-1", TestRecords.EVENT_TIME), 1, 2),
                new RawRecord(Topics.RAW_POSITIONS, 0, 1, Instant.EPOCH, null, null, null, null),
                TestRecords.ingested(TestRecords.position("VH-1", TestRecords.EVENT_TIME), 1, 2),
                RejectedRecord.of(
                        TestRecords.ingested(TestRecords.position("VH-1", TestRecords.EVENT_TIME), 1, 2),
                        RejectionReason.IMPLAUSIBLE_JUMP,
                        "detail",
                        Instant.EPOCH),
                RejectedRecord.undecoded(
                        new RawRecord(Topics.RAW_POSITIONS, 0, 3, Instant.EPOCH, null, new byte[] {1}, null, null),
                        RejectionReason.UNKNOWN_SCHEMA,
                        "detail",
                        Instant.EPOCH),
                // Kept in keyed state:
                new Position("VH-1", Instant.EPOCH, 1, 2, 3, 4, null, 5.0, null, 80.0),
                new DeduplicateResends.FirstAccepted(42L, 1, 7));
    }

    @ParameterizedTest
    @MethodSource("records")
    void isAPojoThatSurvivesSerialisation(Object record) throws Exception {
        @SuppressWarnings("unchecked")
        TypeInformation<Object> type = (TypeInformation<Object>) TypeInformation.of(record.getClass());
        assertThat(type).isInstanceOf(PojoTypeInfo.class);

        TypeSerializer<Object> serializer = type.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(128);
        serializer.serialize(record, out);

        assertThat(serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isEqualTo(record);
    }

    @Test
    void nestedPositionIsAPojoToo() {
        PojoTypeInfo<?> ingested = (PojoTypeInfo<?>) TypeInformation.of(IngestedPosition.class);

        assertThat(ingested.getTypeAt(ingested.getFieldIndex("position"))).isInstanceOf(PojoTypeInfo.class);
        assertThat(ingested.getTypeAt(ingested.getFieldIndex("source"))).isInstanceOf(PojoTypeInfo.class);
    }
}
