package io.fleetlake.model;

/**
 * Columns of {@code fleet.position_places}: the nearest place of each position, written by the geocoding job
 * ({@code fleet geocode}), defined as a table by the catalog, read through the view {@code
 * fleet.positions_with_places}, audits and the dashboard's replay. Rows are keyed like {@code fleet.positions}.
 */
public final class PlaceColumns {
    public static final String VEHICLE_ID = "vehicle_id";
    public static final String EVENT_TIME = "event_time";
    /** The coordinates that were geocoded, copied from the position. */
    public static final String LATITUDE = "latitude";

    public static final String LONGITUDE = "longitude";
    /** The nearest populated place; null when none is within the job's maximum distance (at sea). */
    public static final String PLACE_NAME = "place_name";
    /** The municipality, where the gazetteer names one (Portugal). */
    public static final String MUNICIPALITY = "municipality";
    /** Province (Spain), district (Portugal) or the equivalent division. */
    public static final String PROVINCE = "province";
    /** Autonomous community or city (Spain), district or autonomous region (Portugal). */
    public static final String REGION = "region";

    public static final String COUNTRY_CODE = "country_code";
    public static final String COUNTRY = "country";
    /** Great-circle kilometres from the position to the place. */
    public static final String DISTANCE_KM = "distance_km";
    /** The gazetteer version the place came from. */
    public static final String GAZETTEER = "gazetteer";
    /** When the job wrote the row. */
    public static final String GEOCODED_AT = "geocoded_at";
    /** The view's name for {@link #DISTANCE_KM}, which would be ambiguous next to the positions' columns. */
    public static final String PLACE_DISTANCE_KM = "place_distance_km";

    private PlaceColumns() {}
}
