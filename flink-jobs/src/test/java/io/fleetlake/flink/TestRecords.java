package io.fleetlake.flink;

import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.Topics;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.validation.ValidationRules;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Builds raw records and positions for tests. */
public final class TestRecords {
    public static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.123Z");
    public static final Instant KAFKA_TIME = Instant.parse("2026-11-29T18:00:01.500Z");
    /** The default rules (bundled Iberian region); built once, because building the region takes a moment. */
    public static final ValidationRules RULES = ValidationRules.defaults();

    public static final double MADRID_LATITUDE = 40.4168;
    public static final double MADRID_LONGITUDE = -3.7038;

    private static final PositionCodec CODEC = PositionCodec.bundled();

    private TestRecords() {}

    /** A fix in Madrid with every optional measurement but the battery level (a firmware 1.x device). */
    public static Position position(String vehicleId, Instant eventTime) {
        return at(vehicleId, eventTime, MADRID_LATITUDE, MADRID_LONGITUDE);
    }

    public static Position at(String vehicleId, Instant eventTime, double latitude, double longitude) {
        return new Position(vehicleId, eventTime, latitude, longitude, 57.5, 271.0, 655.0, 4.5, 11, null);
    }

    public static RawRecord avro(Position position, int partition, long offset) {
        return raw(CODEC.encodeAvro(position), position.vehicleId(), partition, offset);
    }

    public static RawRecord json(Position position, int partition, long offset) {
        return raw(CODEC.encodeJson(position), position.vehicleId(), partition, offset);
    }

    public static RawRecord raw(byte[] value, String key, int partition, long offset) {
        return raw(value, key, partition, offset, KAFKA_TIME);
    }

    public static RawRecord raw(byte[] value, String key, int partition, long offset, Instant kafkaTime) {
        return new RawRecord(
                Topics.RAW_POSITIONS,
                partition,
                offset,
                kafkaTime,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value,
                "fleet/" + key + "/position",
                kafkaTime.toEpochMilli() - 5);
    }

    /** A position as decode-positions emits it, read from an Avro record at the given partition and offset. */
    public static IngestedPosition ingested(Position position, int partition, long offset) {
        return new IngestedPosition(position, avro(position, partition, offset));
    }

    /** A position of a vehicle without a route, as enrich-positions emits it. */
    public static EnrichedPosition enriched(Position position, int partition, long offset) {
        return new EnrichedPosition(
                ingested(position, partition, offset), Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
    }
}
