package io.fleetlake.validation;

import static io.fleetlake.validation.PositionBuilder.RECEIVED_AT;
import static io.fleetlake.validation.PositionBuilder.madrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ValidationRulesTest {
    private static final ValidationRules DEFAULTS = ValidationRules.defaults();

    @TempDir
    Path directory;

    @Test
    void defaults() {
        assertThat(DEFAULTS.region()).isEqualTo(OperatingRegion.bundled(10));
        assertThat(DEFAULTS.region().description()).isEqualTo("Iberia operating region (bundled), 10 km buffer");
        assertThat(DEFAULTS.maxSpeedKmh()).isEqualTo(200);
        assertThat(DEFAULTS.maxClockSkew()).isEqualTo(Duration.ofSeconds(30));
        assertThat(DEFAULTS.maxAge()).isEqualTo(Duration.ofDays(7));
        assertThat(DEFAULTS.maxPayloadBytes()).isEqualTo(4096);
        assertThat(DEFAULTS.maxImpliedSpeedKmh()).isEqualTo(300);
        assertThat(DEFAULTS.jumpCheckMaxGap()).isEqualTo(Duration.ofMinutes(30));
        assertThat(DEFAULTS.vehicleIdPattern().pattern()).isEqualTo("[A-Za-z0-9._-]{1,64}");
        assertThat(DEFAULTS.schemas().versions())
                .isEqualTo(PositionSchemas.bundled().versions())
                .extracting(SchemaVersion::file)
                .containsExactly("position-v1.avsc", "position-v2.avsc");
        assertThat(ValidationRules.from(ConfigSource.empty()))
                .isEqualTo(DEFAULTS)
                .hasSameHashCodeAs(DEFAULTS);
    }

    @Test
    void everyKeyIsRead() throws IOException {
        ValidationRules rules = ValidationRules.from(ConfigSource.of(Map.of(
                "validation.region-file", worldFile().toString(),
                "validation.region-buffer-km", "2.5",
                "validation.max-speed-kmh", "160",
                "validation.max-clock-skew", "5s",
                "validation.max-age", "36h",
                "validation.max-payload-bytes", "1024",
                "validation.max-implied-speed-kmh", "250.5",
                "validation.jump-check-max-gap", "PT10M",
                "validation.vehicle-id-pattern", "VH-[0-9]{4}",
                "validation.extra-schema-dir",
                        schemaDirectory("position-v3-odometer.avsc").toString())));

        assertThat(rules.region()).isEqualTo(OperatingRegion.fromGeoJson(worldFile(), 2.5));
        assertThat(rules.maxSpeedKmh()).isEqualTo(160);
        assertThat(rules.maxClockSkew()).isEqualTo(Duration.ofSeconds(5));
        assertThat(rules.maxAge()).isEqualTo(Duration.ofHours(36));
        assertThat(rules.maxPayloadBytes()).isEqualTo(1024);
        assertThat(rules.maxImpliedSpeedKmh()).isEqualTo(250.5);
        assertThat(rules.jumpCheckMaxGap()).isEqualTo(Duration.ofMinutes(10));
        assertThat(rules.vehicleIdPattern().pattern()).isEqualTo("VH-[0-9]{4}");
        assertThat(rules.schemas().versions()).hasSize(3);
        assertThat(rules.toString())
                .isEqualTo(
                        "ValidationRules[region=operating region " + worldFile().toAbsolutePath()
                                + ", 2.5 km buffer, maxSpeedKmh=160, maxClockSkew=5s, maxAge=36h, maxPayloadBytes=1024,"
                                + " maxImpliedSpeedKmh=250.5, jumpCheckMaxGap=10m, vehicleIdPattern=VH-[0-9]{4},"
                                + " schemas=[position-v1.avsc, position-v2.avsc, position-v3-odometer.avsc]]");
    }

    @Test
    void keysGivenDirectlyWinOverTheRulesFile() throws IOException {
        Path rulesFile = Files.writeString(
                directory.resolve("rules.properties"),
                """
                validation.max-speed-kmh = 120
                validation.max-age = 2d
                validation.max-clock-skew = 10s
                """);
        ConfigSource source = ConfigSource.of(
                        Map.of("validation.rules-file", rulesFile.toString(), "validation.max-speed-kmh", "150"))
                .withEnvironment(Map.of("FLEET_VALIDATION_MAX_AGE", "3d"));

        ValidationRules rules = ValidationRules.from(source);

        assertThat(rules.maxSpeedKmh()).as("direct key").isEqualTo(150);
        assertThat(rules.maxAge()).as("environment variable").isEqualTo(Duration.ofDays(3));
        assertThat(rules.maxClockSkew()).as("rules file").isEqualTo(Duration.ofSeconds(10));
        assertThat(rules.maxPayloadBytes()).as("default").isEqualTo(4096);
    }

    @Test
    void relativePathsInTheRulesFileAreRelativeToIt() throws IOException {
        Path rulesDirectory = Files.createDirectory(directory.resolve("rules"));
        Files.copy(worldFile(), rulesDirectory.resolve("world.geojson"));
        Files.copy(
                schemaFile("position-v3-odometer.avsc"),
                Files.createDirectory(rulesDirectory.resolve("schemas")).resolve("position-v3-odometer.avsc"));
        Path rulesFile = Files.writeString(
                rulesDirectory.resolve("rules.properties"),
                """
                validation.region-file = world.geojson
                validation.region-buffer-km = 0
                validation.extra-schema-dir = schemas
                """);

        ValidationRules rules =
                ValidationRules.from(ConfigSource.of(Map.of("validation.rules-file", rulesFile.toString())));

        assertThat(rules.region().description())
                .contains(rulesDirectory.resolve("world.geojson").toString());
        assertThat(rules.region().contains(-45, 170)).isTrue();
        assertThat(rules.schemas().latest().file()).isEqualTo("position-v3-odometer.avsc");
    }

    @Test
    void unknownKeyInTheRulesFileIsRefused() throws IOException {
        Path rulesFile = Files.writeString(directory.resolve("rules.properties"), "validation.max-sped-kmh = 120\n");

        assertThatThrownBy(() ->
                        ValidationRules.from(ConfigSource.of(Map.of("validation.rules-file", rulesFile.toString()))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Rules file " + rulesFile)
                .hasMessageContaining("[validation.max-sped-kmh]")
                .hasMessageContaining("validation.max-speed-kmh");
    }

    @Test
    void missingRulesFileIsRefused() {
        Path rulesFile = directory.resolve("absent.properties");

        assertThatThrownBy(() ->
                        ValidationRules.from(ConfigSource.of(Map.of("validation.rules-file", rulesFile.toString()))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(rulesFile.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void invalidValueInTheRulesFileNamesTheFile() throws IOException {
        Path rulesFile = Files.writeString(directory.resolve("rules.properties"), "validation.max-age = a week\n");

        assertThatThrownBy(() ->
                        ValidationRules.from(ConfigSource.of(Map.of("validation.rules-file", rulesFile.toString()))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("validation.max-age = 'a week' from file " + rulesFile);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "validation.max-speed-kmh | fast | validation.max-speed-kmh = 'fast'",
                "validation.max-speed-kmh | 0 | validation.max-speed-kmh = 0 must be a positive, finite speed",
                "validation.max-speed-kmh | -5 | validation.max-speed-kmh = -5 must be a positive, finite speed",
                "validation.max-speed-kmh | NaN | validation.max-speed-kmh = NaN must be a positive, finite speed",
                "validation.max-clock-skew | soon | validation.max-clock-skew = 'soon'",
                "validation.max-clock-skew | PT-1S | validation.max-clock-skew = -1s is negative",
                "validation.max-age | 0s | validation.max-age = 0s must be a positive duration",
                "validation.max-payload-bytes | 4k | validation.max-payload-bytes = '4k'",
                "validation.max-payload-bytes | 0 | validation.max-payload-bytes = 0 must be a positive number of bytes",
                "validation.max-implied-speed-kmh | Infinity | validation.max-implied-speed-kmh = Infinity must be",
                "validation.jump-check-max-gap | 0m | validation.jump-check-max-gap = 0s must be a positive duration",
                "validation.region-buffer-km | -1 | validation.region-buffer-km = -1 must be a distance of 0 km or more",
                "validation.region-buffer-km | ten | validation.region-buffer-km = 'ten'",
                "validation.region-file | /nonexistent/region.geojson"
                        + " | Operating region file /nonexistent/region.geojson does not exist",
                "validation.extra-schema-dir | /nonexistent/schemas"
                        + " | validation.extra-schema-dir = '/nonexistent/schemas' is not a directory",
            })
    void invalidValueIsRefusedNamingKeyAndValue(String key, String value, String message) {
        assertThatThrownBy(() -> ValidationRules.from(ConfigSource.of(Map.of(key, value))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @Test
    void regionFileThatIsNotPolygonsIsRefusedNamingTheFile() throws IOException {
        Path file = Files.writeString(
                directory.resolve("cities.geojson"), "{\"type\": \"MultiPoint\", \"coordinates\": [[0, 0]]}");

        assertThatThrownBy(
                        () -> ValidationRules.from(ConfigSource.of(Map.of("validation.region-file", file.toString()))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("GeoJSON file " + file.toAbsolutePath() + ": $ has type 'MultiPoint'; expected"
                        + " FeatureCollection, Feature, MultiPolygon or Polygon");
    }

    @Test
    void compatibleExtraSchemaIsAppendedAndDecodable() throws IOException {
        ValidationRules rules = withExtraSchemas("position-v3-odometer.avsc");

        assertThat(rules.schemas().versions())
                .extracting(SchemaVersion::number, SchemaVersion::file)
                .containsExactly(
                        tuple(1, "position-v1.avsc"),
                        tuple(2, "position-v2.avsc"),
                        tuple(3, "position-v3-odometer.avsc"));
        PositionCodec codec = new PositionCodec(rules.schemas());
        byte[] payload = codec.encodeAvro(madrid().build(), rules.schemas().latest());
        assertThat(codec.decode(payload)).isEqualTo(new DecodeResult.Decoded(madrid().build(), PayloadFormat.AVRO, 3));
    }

    @Test
    void incompatibleExtraSchemaIsRefusedNamingFileAndField() throws IOException {
        assertThatThrownBy(() -> withExtraSchemas("position-v3-odometer.avsc", "position-v3-satellites-as-long.avsc"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("validation.extra-schema-dir")
                .hasMessageContaining("position-v3-satellites-as-long.avsc: changes the type of field 'satellites'");
    }

    @Test
    void unparsableExtraSchemaIsRefusedNamingTheFile() throws IOException {
        Path schemas = Files.createDirectory(directory.resolve("schemas"));
        Path broken = Files.writeString(schemas.resolve("position-v3.avsc"), "{\"type\": \"record\", \"name\": ");

        assertThatThrownBy(() -> ValidationRules.from(
                        ConfigSource.of(Map.of("validation.extra-schema-dir", schemas.toString()))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "Position schema file " + broken.toAbsolutePath() + " is not a valid Avro schema");
    }

    @Test
    void extraSchemaAlreadyBundledIsNotAddedTwice() throws IOException {
        Path schemas = Files.createDirectory(directory.resolve("schemas"));
        Files.writeString(
                schemas.resolve("copy-of-v2.avsc"),
                PositionSchemas.bundled().version(2).schema().toString());
        Files.writeString(schemas.resolve("notes.txt"), "not a schema");

        ValidationRules rules =
                ValidationRules.from(ConfigSource.of(Map.of("validation.extra-schema-dir", schemas.toString())));

        assertThat(rules.schemas().versions())
                .isEqualTo(PositionSchemas.bundled().versions());
    }

    @Test
    void serialisedValidatorStillValidates() throws IOException, ClassNotFoundException {
        PositionValidator validator = new PositionValidator(withExtraSchemas("position-v3-odometer.avsc"));

        PositionValidator copy = OperatingRegionTest.roundTrip(validator);

        assertThat(copy.rules()).isEqualTo(validator.rules());
        assertThat(copy.validate(madrid().build(), RECEIVED_AT)).isEmpty();
        assertThat(copy.validate(madrid().at(48.8566, 2.3522).build(), RECEIVED_AT))
                .map(Rejection::reason)
                .contains(RejectionReason.OUTSIDE_REGION);
        assertThat(copy.rules().schemas().latest().file()).isEqualTo("position-v3-odometer.avsc");
    }

    @Test
    void serialisedDefaultRulesAreEqual() throws IOException, ClassNotFoundException {
        assertThat(OperatingRegionTest.roundTrip(DEFAULTS)).isEqualTo(DEFAULTS);
    }

    private ValidationRules withExtraSchemas(String... files) throws IOException {
        Path schemas = schemaDirectory(files);
        Map<String, String> values = new HashMap<>();
        values.put("validation.extra-schema-dir", schemas.toString());
        return ValidationRules.from(ConfigSource.of(values));
    }

    private Path schemaDirectory(String... files) throws IOException {
        Path schemas = Files.createDirectories(directory.resolve("extra-schemas"));
        for (String file : files) {
            Files.copy(schemaFile(file), schemas.resolve(file));
        }
        return schemas;
    }

    private static Path schemaFile(String name) {
        return TestFiles.resource("schemas/" + name);
    }

    private static Path worldFile() {
        return TestFiles.resource("world.geojson");
    }
}
