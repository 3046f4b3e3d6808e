package io.fleetlake.flink;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PositionCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Builds raw records and positions for tests. */
public final class TestRecords {
    public static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.123Z");
    public static final Instant KAFKA_TIME = Instant.parse("2026-11-29T18:00:01.500Z");

    private static final PositionCodec CODEC = PositionCodec.bundled();

    private TestRecords() {}

    public static Position position(String vehicleId, Instant eventTime) {
        return new Position(vehicleId, eventTime, 40.4168, -3.7038, 57.5, 271.0, 655.0, 4.5, 11);
    }

    public static RawRecord avro(Position position, int partition, long offset) {
        return raw(CODEC.encodeAvro(position), position.vehicleId(), partition, offset);
    }

    public static RawRecord json(Position position, int partition, long offset) {
        return raw(CODEC.encodeJson(position), position.vehicleId(), partition, offset);
    }

    public static RawRecord raw(byte[] value, String key, int partition, long offset) {
        return new RawRecord(
                Topics.RAW_POSITIONS,
                partition,
                offset,
                KAFKA_TIME,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value,
                "fleet/" + key + "/position",
                KAFKA_TIME.toEpochMilli() - 5);
    }

    public static IngestedPosition ingested(Position position, int partition, long offset) {
        return new IngestedPosition(position, partition, offset, KAFKA_TIME);
    }
}
