package io.fleetlake.flink.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.types.ValueTypeInfo;
import io.fleetlake.flink.windows.MinuteAggregate;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import io.fleetlake.model.VehicleStatus;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records cross the network between operators and live in checkpoints: none may fall back to Kryo (the pipeline
 * runs with {@code pipeline.generic-types: false}). Those that cross a network edge of every record (raw records,
 * decoded positions, rejections, route updates) are written by hand-written serializers; the others, chained or rare,
 * are Flink POJOs.
 */
class RecordTypesTest {
    private static final IngestedPosition INGESTED = TestRecords.ingested(
            new Position("VH-1", TestRecords.EVENT_TIME.plusNanos(7), 40.1, -3.2, 50, 90, 650.5, 4.5, 12, 80.0), 1, 2);

    static Stream<Object> handWritten() {
        return Stream.of(
                TestRecords.avro(TestRecords.position("VH-1", TestRecords.EVENT_TIME), 1, 2),
                new RawRecord(Topics.RAW_POSITIONS, 0, 1, Instant.EPOCH, null, null, null, null),
                new RawRecord(
                        Topics.RAW_POSITIONS, 0, 1, Instant.EPOCH, new byte[0], new byte[] {1}, "t", 5L, "dlq/0/1"),
                INGESTED,
                TestRecords.ingested(Position.of("VH-2", Instant.EPOCH, 1, 2, 3, 4), 0, 0),
                RejectedRecord.of(INGESTED, RejectionReason.IMPLAUSIBLE_JUMP, "detail", Instant.EPOCH),
                RejectedRecord.undecoded(
                        new RawRecord(Topics.RAW_POSITIONS, 0, 3, Instant.EPOCH, null, new byte[] {1}, null, null),
                        RejectionReason.PROCESSING_ERROR,
                        "detail",
                        Instant.EPOCH),
                RouteUpdate.assigned(TestRoutes.route(), Instant.EPOCH),
                RouteUpdate.withdrawn("VH-1", Instant.EPOCH),
                new RoutePoll(Instant.EPOCH, List.of(TestRoutes.route(), TestRoutes.route("R-2", "VH-2"))));
    }

    static Stream<Object> pojos() {
        return Stream.of(
                new EnrichedPosition(
                        INGESTED,
                        new Enrichment(
                                "R-1", "S-1", 12.5, DistanceMethod.ALONG_ROUTE, 3.0, VehicleStatus.ON_ROUTE, true)),
                VehicleState.of(TestRecords.enriched(INGESTED.position(), 0, 1)),
                new VehicleMinute(
                        "VH-1",
                        Instant.EPOCH,
                        Instant.EPOCH.plusSeconds(60),
                        new MinuteAggregate(2, 1, 2, 3, 4),
                        Instant.EPOCH),
                MinuteAggregate.Fix.of(INGESTED.position()));
    }

    @ParameterizedTest
    @MethodSource("handWritten")
    void networkRecordsHaveHandWrittenSerializersThatRoundTrip(Object record) throws Exception {
        TypeInformation<Object> type = typeOf(record);
        assertThat(type).isInstanceOf(ValueTypeInfo.class);

        assertThat(roundTrip(type, record)).isEqualTo(record);
    }

    @ParameterizedTest
    @MethodSource("pojos")
    void otherRecordsArePojosThatSurviveSerialisation(Object record) throws Exception {
        TypeInformation<Object> type = typeOf(record);
        assertThat(type).isInstanceOf(PojoTypeInfo.class);

        assertThat(roundTrip(type, record)).isEqualTo(record);
    }

    @SuppressWarnings("unchecked")
    private static TypeInformation<Object> typeOf(Object record) {
        return (TypeInformation<Object>) TypeInformation.of(record.getClass());
    }

    private static Object roundTrip(TypeInformation<Object> type, Object record) throws Exception {
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        TypeSerializer<Object> serializer = type.createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(128);
        serializer.serialize(record, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
