package io.fleetlake.geocoding;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The file format of the bundled gazetteer, written at build time by {@code build.GazetteerBuilder} and read by {@link
 * Gazetteer}: gzip-compressed UTF-8 text, one place per line, tab-separated columns in the order of {@link #COLUMNS}
 * after one header line naming them; an empty field is an absent municipality. Coordinates are written with five
 * decimals (about a metre), as GeoNames gives them.
 */
public final class GazetteerFile {
    /** The places, under {@code io/fleetlake/geocoding/} in the jar. */
    public static final String PLACES_RESOURCE = "iberia-places.tsv.gz";

    /** Where the places came from, their licence and the reduction applied; a properties file next to the places. */
    public static final String ABOUT_RESOURCE = "iberia-places.properties";

    public static final List<String> COLUMNS =
            List.of("name", "latitude", "longitude", "municipality", "province", "region", "country_code", "country");

    /** Keys of {@link #ABOUT_RESOURCE}. */
    public static final String VERSION_KEY = "gazetteer.version";

    public static final String SOURCE_KEY = "gazetteer.source";
    public static final String LICENCE_KEY = "gazetteer.licence";
    public static final String PLACES_KEY = "gazetteer.places";

    private GazetteerFile() {}

    public static String header() {
        return String.join("\t", COLUMNS);
    }

    /** One line for a place, without the line terminator. */
    public static String line(Place place) {
        requireNonNull(place, "place is null");
        List<String> fields = List.of(
                place.name(),
                coordinate(place.latitude()),
                coordinate(place.longitude()),
                place.municipality().orElse(""),
                place.province(),
                place.region(),
                place.countryCode(),
                place.country());
        for (String field : fields) {
            if (field.indexOf('\t') >= 0 || field.indexOf('\n') >= 0 || field.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("Place " + place.name() + " has a tab or line break in '" + field
                        + "'; the gazetteer file cannot hold it");
            }
        }
        return String.join("\t", fields);
    }

    /**
     * Parses one line.
     *
     * @param lineNumber for the error message
     * @throws IllegalArgumentException naming the line when it is malformed
     */
    public static Place parse(String line, int lineNumber) {
        requireNonNull(line, "line is null");
        String[] fields = line.split("\t", -1);
        if (fields.length != COLUMNS.size()) {
            throw new IllegalArgumentException("Gazetteer line " + lineNumber + " has " + fields.length
                    + " fields where " + COLUMNS.size() + " are expected (" + header().replace('\t', ',') + ")");
        }
        try {
            return new Place(
                    fields[0],
                    Double.parseDouble(fields[1]),
                    Double.parseDouble(fields[2]),
                    fields[3].isEmpty() ? Optional.empty() : Optional.of(fields[3]),
                    fields[4],
                    fields[5],
                    fields[6],
                    fields[7]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Gazetteer line " + lineNumber + " is invalid: " + e.getMessage(), e);
        }
    }

    /** Every line of a file's content after the header; the header must be {@link #header()}. */
    static List<Place> parseAll(List<String> lines, String source) {
        if (lines.isEmpty() || !lines.get(0).equals(header())) {
            throw new IllegalStateException(source + " does not start with the header " + header().replace('\t', ','));
        }
        List<Place> places = new ArrayList<>(lines.size() - 1);
        for (int index = 1; index < lines.size(); index++) {
            if (!lines.get(index).isEmpty()) {
                places.add(parse(lines.get(index), index + 1));
            }
        }
        return places;
    }

    private static String coordinate(double value) {
        return String.format(Locale.ROOT, "%.5f", value);
    }
}
