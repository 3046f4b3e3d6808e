package io.fleetlake.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.model.geo.GreatCircle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OperatingRegionTest {
    private static final OperatingRegion BUNDLED = OperatingRegion.bundled(10);

    @TempDir
    Path directory;

    @ParameterizedTest(name = "{0} is inside")
    @CsvSource(
            delimiter = ';',
            value = {
                "Madrid; 40.4168; -3.7038",
                "Ceuta; 35.8894; -5.3213",
                "Melilla; 35.2923; -2.9381",
                "Palma (Mallorca); 39.5696; 2.6502",
                "Las Palmas de Gran Canaria; 28.1235; -15.4363",
                "Santa Cruz de Tenerife; 28.4636; -16.2518",
                "Funchal (Madeira); 32.6669; -16.9241",
                "Ponta Delgada (Azores), outside the coarse coastline; 37.7412; -25.6756",
                "Horta (Faial, Azores), outside the coarse coastline; 38.5350; -28.6270",
                "Lisbon; 38.7223; -9.1393",
                "Porto; 41.1579; -8.6291",
                "A Coruña; 43.3623; -8.4115",
                "Cádiz; 36.5271; -6.2886",
                "Algeciras port, outside the coarse coastline; 36.1290; -5.4380",
                "La Línea de la Concepción; 36.1680; -5.3480",
                "Gibraltar, in neither country; 36.1408; -5.3536",
                "Europa Point (Gibraltar), in neither country; 36.1100; -5.3450",
                "N-145 at the Andorra border (La Farga de Moles); 42.4340; 1.4660",
                "Barcelona container port (Moll Prat), outside the coarse coastline; 41.3000; 2.1500",
                "Barceloneta beach (Barcelona); 41.3809; 2.1896",
                "Valencia port, outside the coarse coastline; 39.4450; -0.3160",
            })
    void bundledRegionAccepts(String place, double latitude, double longitude) {
        assertThat(BUNDLED.contains(latitude, longitude)).isTrue();
    }

    @ParameterizedTest(name = "{0} is outside")
    @CsvSource(
            delimiter = ';',
            value = {
                "Paris; 48.8566; 2.3522",
                "Bordeaux; 44.8378; -0.5792",
                "Perpignan, 25 km from the border; 42.6887; 2.8948",
                "Rabat; 34.0209; -6.8416",
                "Tangier, across the strait; 35.7595; -5.8340",
                "Marrakesh; 31.6295; -7.9811",
                "Algiers; 36.7538; 3.0588",
                "open Atlantic; 40.0; -20.0",
                "null island (0, 0); 0.0; 0.0",
            })
    void bundledRegionRefuses(String place, double latitude, double longitude) {
        assertThat(BUNDLED.contains(latitude, longitude)).isFalse();
    }

    @ParameterizedTest(name = "{0} needs the buffer")
    @CsvSource(
            delimiter = ';',
            value = {
                "Ponta Delgada (Azores); 37.7412; -25.6756",
                "Gibraltar; 36.1408; -5.3536",
                "Algeciras port; 36.1290; -5.4380",
                "Barcelona container port (Moll Prat); 41.3000; 2.1500",
                "N-145 at the Andorra border; 42.4340; 1.4660",
            })
    void coarseCoastlineWithoutBufferRefusesCoastalAndBorderPoints(String place, double latitude, double longitude) {
        assertThat(OperatingRegion.bundled(0).contains(latitude, longitude)).isFalse();
    }

    @Test
    void bufferIsMeasuredInKilometresAtTheRegionsLatitude() throws IOException {
        // A square from 59.5 to 60.5 degrees north, where a degree of longitude is only about 55.6 km: a buffer
        // taken as degrees of latitude would reach only 5 km east instead of 10.
        Path file = write(
                "square.geojson",
                """
                {"type": "Polygon", "coordinates": [[[10, 59.5], [11, 59.5], [11, 60.5], [10, 60.5], [10, 59.5]]]}
                """);
        OperatingRegion region = OperatingRegion.fromGeoJson(file, 10);
        double kilometresPerLongitudeDegree = GreatCircle.KILOMETRES_PER_DEGREE * Math.cos(Math.toRadians(60));

        assertThat(region.contains(60, 11 + 8 / kilometresPerLongitudeDegree))
                .as("8 km east")
                .isTrue();
        assertThat(region.contains(60, 11 + 12 / kilometresPerLongitudeDegree))
                .as("12 km east")
                .isFalse();
        assertThat(region.contains(60.5 + 9.5 / GreatCircle.KILOMETRES_PER_DEGREE, 10.5))
                .as("9.5 km north")
                .isTrue();
        assertThat(region.contains(60.5 + 10.5 / GreatCircle.KILOMETRES_PER_DEGREE, 10.5))
                .as("10.5 km north")
                .isFalse();
    }

    @Test
    void edgeBelongsToTheRegion() {
        OperatingRegion region = OperatingRegion.fromGeoJson(world(), 0);

        assertThat(region.contains(90, 180)).isTrue();
        assertThat(region.contains(-90, -180)).isTrue();
    }

    @Test
    void coordinatesThatAreNotFiniteAreOutside() {
        assertThat(BUNDLED.contains(Double.NaN, -3.7)).isFalse();
        assertThat(BUNDLED.contains(40.4, Double.POSITIVE_INFINITY)).isFalse();
    }

    @Test
    void description() {
        assertThat(BUNDLED.description()).isEqualTo("Iberia operating region (bundled), 10 km buffer");
        assertThat(OperatingRegion.bundled(2.5).description())
                .isEqualTo("Iberia operating region (bundled), 2.5 km buffer");
        assertThat(OperatingRegion.fromGeoJson(world(), 0).description())
                .isEqualTo("operating region " + world().toAbsolutePath() + ", 0 km buffer");
    }

    @Test
    void negativeOrInfiniteBufferIsRefused() {
        assertThatThrownBy(() -> OperatingRegion.bundled(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> OperatingRegion.bundled(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperatingRegion.bundled(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void equalRegionsFromTheSameSourceAndBuffer() {
        assertThat(OperatingRegion.bundled(10)).isEqualTo(BUNDLED).hasSameHashCodeAs(BUNDLED);
        assertThat(OperatingRegion.bundled(5)).isNotEqualTo(BUNDLED);
    }

    @Test
    void serialisedRegionStillAnswers() throws IOException, ClassNotFoundException {
        OperatingRegion copy = roundTrip(BUNDLED);

        assertThat(copy).isEqualTo(BUNDLED);
        assertThat(copy.contains(35.8894, -5.3213)).as("Ceuta").isTrue();
        assertThat(copy.contains(35.7595, -5.8340)).as("Tangier").isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "not JSON | {\"type\": | is not valid JSON",
                "empty file | `` | is empty",
                "a point | {\"type\": \"Point\", \"coordinates\": [0, 0]} | has type 'Point'",
                "a feature with a line"
                        + " | {\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[0, 0], [1, 1]]}}"
                        + " | $.geometry is a 'LineString' geometry; the operating region needs Polygon or MultiPolygon",
                "an empty collection | {\"type\": \"FeatureCollection\", \"features\": []} | holds no polygon",
                "a collection without features | {\"type\": \"FeatureCollection\"} | $.features is missing",
                "an open ring"
                        + " | {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"
                        + " | $.coordinates[0] is not closed",
                "a ring of three positions"
                        + " | {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [0, 0]]]}"
                        + " | is a ring of 3 positions",
                "latitude first"
                        + " | {\"type\": \"Polygon\", \"coordinates\": [[[40, -3], [40, 200], [41, 200], [40, -3]]]}"
                        + " | $.coordinates[0][1] is [40, 200], outside longitude -180..180 / latitude -90..90",
                "a position that is not numbers"
                        + " | {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [\"1\", 0], [1, 1], [0, 0]]]}"
                        + " | $.coordinates[0][1] is not a position",
                "a collapsed polygon"
                        + " | {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 1], [0, 0], [1, 1], [0, 0]]]}"
                        + " | holds no polygon with an area",
            })
    void unusableGeoJsonIsRefusedNamingFileAndProblem(String name, String content, String problem) throws IOException {
        Path file = write("region.geojson", content);

        assertThatThrownBy(() -> OperatingRegion.fromGeoJson(file, 10))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toAbsolutePath().toString())
                .hasMessageContaining(problem);
    }

    @Test
    void missingFileIsRefused() {
        Path file = directory.resolve("absent.geojson");

        assertThatThrownBy(() -> OperatingRegion.fromGeoJson(file, 10))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Operating region file " + file.toAbsolutePath() + " does not exist or is not a file");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(directory.resolve(name), content);
    }

    private static Path world() {
        return TestFiles.resource("world.geojson");
    }

    static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            T copy = (T) in.readObject();
            return copy;
        }
    }
}
