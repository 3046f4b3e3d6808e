package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.codec.PositionField;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * One accepted fix of a vehicle as an audit reads it from {@code fleet.positions}, with the lineage that leads back to
 * the Kafka record and the place it was geocoded to. Enrichment columns are empty when the snapshot read predates them or the pipeline left them null.
 *
 * @param eventTime when the device took the fix
 * @param latitude WGS84 degrees
 * @param longitude WGS84 degrees
 * @param speedKmh ground speed
 * @param headingDeg course over ground
 * @param status the enrichment's vehicle status
 * @param routeId the planned route
 * @param nextStopId the next stop not reached yet
 * @param placeName the nearest place ({@code fleet.position_places}, written by {@code fleet geocode}); empty until the
 *     fix is geocoded, or when no place is near
 * @param province the place's province (Spain), district (Portugal)
 * @param ingestTime when the record reached the raw topic
 * @param sourcePartition raw topic partition
 * @param sourceOffset offset in that partition
 */
public record TrackPoint(
        Instant eventTime,
        double latitude,
        double longitude,
        double speedKmh,
        double headingDeg,
        Optional<String> status,
        Optional<String> routeId,
        Optional<String> nextStopId,
        Optional<String> placeName,
        Optional<String> province,
        Instant ingestTime,
        int sourcePartition,
        long sourceOffset) {
    public TrackPoint {
        requireNonNull(eventTime, "eventTime is null");
        requireNonNull(status, "status is null");
        requireNonNull(routeId, "routeId is null");
        requireNonNull(nextStopId, "nextStopId is null");
        requireNonNull(placeName, "placeName is null");
        requireNonNull(province, "province is null");
        requireNonNull(ingestTime, "ingestTime is null");
    }

    static TrackPoint read(Row row) throws SQLException {
        return new TrackPoint(
                row.instant(PositionField.EVENT_TIME.fieldName()),
                row.doubleValue(PositionField.LATITUDE.fieldName()),
                row.doubleValue(PositionField.LONGITUDE.fieldName()),
                row.doubleValue(PositionField.SPEED_KMH.fieldName()),
                row.doubleValue(PositionField.HEADING_DEG.fieldName()),
                row.optionalString(EnrichmentColumns.STATUS),
                row.optionalString(EnrichmentColumns.ROUTE_ID),
                row.optionalString(EnrichmentColumns.NEXT_STOP_ID),
                row.optionalString(PlaceColumns.PLACE_NAME),
                row.optionalString(PlaceColumns.PROVINCE),
                row.instant(LineageColumns.INGEST_TIME),
                Math.toIntExact(row.longValue(LineageColumns.SOURCE_PARTITION)),
                row.longValue(LineageColumns.SOURCE_OFFSET));
    }
}
