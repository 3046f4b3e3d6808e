package io.fleetlake.spark.geocode;

import static java.util.Objects.requireNonNull;

import io.fleetlake.geocoding.Place;
import io.fleetlake.geocoding.PlaceMatch;
import io.fleetlake.geocoding.ReverseGeocoder;
import io.fleetlake.model.PlaceColumns;
import java.io.Serial;
import java.util.Iterator;
import java.util.Optional;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Names each position ({@code vehicle_id, event_time, latitude, longitude}) after its nearest place. The geocoder is a
 * broadcast variable: each executor JVM loads the bundled gazetteer once, whatever the number of tasks.
 */
final class GeocodeFunction implements MapPartitionsFunction<Row, Row> {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The positions' columns the function reads. */
    static final StructType INPUT = new StructType()
            .add(PlaceColumns.VEHICLE_ID, DataTypes.StringType, false)
            .add(PlaceColumns.EVENT_TIME, DataTypes.TimestampType, false)
            .add(PlaceColumns.LATITUDE, DataTypes.DoubleType, false)
            .add(PlaceColumns.LONGITUDE, DataTypes.DoubleType, false);

    /** The rows it returns: the input and the place columns, null when no place is near. */
    static final StructType OUTPUT = INPUT.add(PlaceColumns.PLACE_NAME, DataTypes.StringType, true)
            .add(PlaceColumns.MUNICIPALITY, DataTypes.StringType, true)
            .add(PlaceColumns.PROVINCE, DataTypes.StringType, true)
            .add(PlaceColumns.REGION, DataTypes.StringType, true)
            .add(PlaceColumns.COUNTRY_CODE, DataTypes.StringType, true)
            .add(PlaceColumns.COUNTRY, DataTypes.StringType, true)
            .add(PlaceColumns.DISTANCE_KM, DataTypes.DoubleType, true);

    private final Broadcast<ReverseGeocoder> geocoder;

    GeocodeFunction(Broadcast<ReverseGeocoder> geocoder) {
        this.geocoder = requireNonNull(geocoder, "geocoder is null");
    }

    @Override
    public Iterator<Row> call(Iterator<Row> positions) {
        ReverseGeocoder nearest = geocoder.value();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return positions.hasNext();
            }

            @Override
            public Row next() {
                return geocode(positions.next(), nearest);
            }
        };
    }

    static Row geocode(Row position, ReverseGeocoder geocoder) {
        double latitude = position.getDouble(2);
        double longitude = position.getDouble(3);
        Optional<PlaceMatch> match = geocoder.nearest(latitude, longitude);
        Place place = match.map(PlaceMatch::place).orElse(null);
        return RowFactory.create(
                position.get(0),
                position.get(1),
                latitude,
                longitude,
                place == null ? null : place.name(),
                place == null ? null : place.municipality().orElse(null),
                place == null ? null : place.province(),
                place == null ? null : place.region(),
                place == null ? null : place.countryCode(),
                place == null ? null : place.country(),
                match.map(PlaceMatch::distanceKm).orElse(null));
    }
}
