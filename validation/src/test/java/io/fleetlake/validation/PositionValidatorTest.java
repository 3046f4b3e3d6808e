package io.fleetlake.validation;

import static io.fleetlake.model.RejectionReason.EVENT_TIME_IN_FUTURE;
import static io.fleetlake.model.RejectionReason.EVENT_TIME_TOO_OLD;
import static io.fleetlake.model.RejectionReason.INVALID_COORDINATES;
import static io.fleetlake.model.RejectionReason.INVALID_FIELD;
import static io.fleetlake.model.RejectionReason.INVALID_VEHICLE_ID;
import static io.fleetlake.model.RejectionReason.OUTSIDE_REGION;
import static io.fleetlake.model.RejectionReason.PAYLOAD_TOO_LARGE;
import static io.fleetlake.model.RejectionReason.SPEED_TOO_HIGH;
import static io.fleetlake.model.RejectionReason.VEHICLE_ID_MISMATCH;
import static io.fleetlake.validation.PositionBuilder.RECEIVED_AT;
import static io.fleetlake.validation.PositionBuilder.madrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PositionValidatorTest {
    private static final PositionValidator DEFAULTS = new PositionValidator(ValidationRules.defaults());

    /** Default limits, but a region covering the whole Earth, so that each rule is seen on its own. */
    private static final PositionValidator EVERYWHERE =
            new PositionValidator(ValidationRules.from(ConfigSource.of(Map.of(
                    ValidationRules.REGION_FILE,
                    TestFiles.resource("world.geojson").toString(),
                    ValidationRules.REGION_BUFFER_KM,
                    "0"))));

    static Stream<Arguments> statelessRules() {
        return Stream.of(
                arguments("valid position", madrid(), null, strings()),
                arguments("vehicle id of 64 characters", madrid().vehicle("a._-" + "9".repeat(60)), null, strings()),
                arguments(
                        "vehicle id of 65 characters",
                        madrid().vehicle("V".repeat(65)),
                        INVALID_VEHICLE_ID,
                        strings("'VVVVV", "does not match [A-Za-z0-9._-]{1,64}")),
                arguments(
                        "vehicle id with CR LF",
                        madrid().vehicle("VH-1\r\nSET x"),
                        INVALID_VEHICLE_ID,
                        strings("'VH-1\\u000d\\u000aSET x'")),
                arguments(
                        "vehicle id with a path",
                        madrid().vehicle("../VH-1"),
                        INVALID_VEHICLE_ID,
                        strings("'../VH-1'")),
                arguments("vehicle id with a slash", madrid().vehicle("VH/1"), INVALID_VEHICLE_ID, strings("'VH/1'")),
                arguments("vehicle id with a space", madrid().vehicle("VH 1"), INVALID_VEHICLE_ID, strings("'VH 1'")),
                arguments(
                        "vehicle id with a quote", madrid().vehicle("VH'1"), INVALID_VEHICLE_ID, strings("VH\\u00271")),
                arguments("vehicle id not ASCII", madrid().vehicle("VH-ñ"), INVALID_VEHICLE_ID, strings("'VH-ñ'")),
                arguments("altitude absent", madrid().altitude(null), null, strings()),
                arguments("altitude -1000", madrid().altitude(-1_000.0), null, strings()),
                arguments("altitude 10000", madrid().altitude(10_000.0), null, strings()),
                arguments(
                        "altitude -1000.1",
                        madrid().altitude(-1_000.1),
                        INVALID_FIELD,
                        strings("altitude_m -1000.1", "-1000..10000")),
                arguments("altitude NaN", madrid().altitude(Double.NaN), INVALID_FIELD, strings("altitude_m NaN")),
                arguments(
                        "altitude infinite",
                        madrid().altitude(Double.POSITIVE_INFINITY),
                        INVALID_FIELD,
                        strings("altitude_m Infinity")),
                arguments("satellites absent", madrid().satellites(null), null, strings()),
                arguments("satellites 0", madrid().satellites(0), null, strings()),
                arguments("satellites 255", madrid().satellites(255), null, strings()),
                arguments(
                        "satellites 256", madrid().satellites(256), INVALID_FIELD, strings("satellites 256", "0..255")),
                arguments("satellites -1", madrid().satellites(-1), INVALID_FIELD, strings("satellites -1")),
                arguments(
                        "accuracy infinite",
                        madrid().accuracy(Double.POSITIVE_INFINITY),
                        INVALID_FIELD,
                        strings("accuracy_m Infinity")),
                arguments(
                        "event time before the GPS epoch",
                        madrid().eventTime(Instant.parse("1980-01-05T23:59:59.999Z")),
                        INVALID_FIELD,
                        strings("event_time 1980-01-05T23:59:59.999Z is outside 1980-01-06T00:00:00Z..")),
                arguments(
                        "event time of the largest long of milliseconds",
                        madrid().eventTime(Instant.ofEpochMilli(Long.MAX_VALUE)),
                        INVALID_FIELD,
                        strings("event_time +292278994-08-17T07:12:55.807Z is outside")),
                arguments(
                        "event time Instant.MIN",
                        madrid().eventTime(Instant.MIN),
                        INVALID_FIELD,
                        strings("event_time -1000000000-01-01T00:00:00Z is outside")),
                arguments("latitude 90", madrid().latitude(90), null, strings()),
                arguments("latitude -90", madrid().latitude(-90), null, strings()),
                arguments(
                        "latitude 90.0001",
                        madrid().latitude(90.0001),
                        INVALID_COORDINATES,
                        strings("90.0001", "-90..90")),
                arguments(
                        "latitude -90.0001",
                        madrid().latitude(-90.0001),
                        INVALID_COORDINATES,
                        strings("-90.0001", "-90..90")),
                arguments("latitude NaN", madrid().latitude(Double.NaN), INVALID_COORDINATES, strings("latitude NaN")),
                arguments("longitude 180", madrid().longitude(180), null, strings()),
                arguments("longitude -180", madrid().longitude(-180), null, strings()),
                arguments(
                        "longitude 180.0001",
                        madrid().longitude(180.0001),
                        INVALID_COORDINATES,
                        strings("180.0001", "-180..180")),
                arguments(
                        "longitude -180.0001",
                        madrid().longitude(-180.0001),
                        INVALID_COORDINATES,
                        strings("-180.0001", "-180..180")),
                arguments(
                        "longitude infinite",
                        madrid().longitude(Double.NEGATIVE_INFINITY),
                        INVALID_COORDINATES,
                        strings("-Infinity")),
                arguments("speed 0", madrid().speed(0), null, strings()),
                arguments("speed -0.1", madrid().speed(-0.1), INVALID_FIELD, strings("speed_kmh -0.1")),
                arguments("speed NaN", madrid().speed(Double.NaN), INVALID_FIELD, strings("speed_kmh NaN")),
                arguments(
                        "speed infinite",
                        madrid().speed(Double.POSITIVE_INFINITY),
                        INVALID_FIELD,
                        strings("speed_kmh Infinity")),
                arguments("heading 0", madrid().heading(0), null, strings()),
                arguments("heading 360", madrid().heading(360), null, strings()),
                arguments("heading -0.1", madrid().heading(-0.1), INVALID_FIELD, strings("heading_deg -0.1", "0..360")),
                arguments(
                        "heading 360.1",
                        madrid().heading(360.1),
                        INVALID_FIELD,
                        strings("heading_deg 360.1", "0..360")),
                arguments("heading NaN", madrid().heading(Double.NaN), INVALID_FIELD, strings("heading_deg NaN")),
                arguments("battery level absent", madrid().battery(null), null, strings()),
                arguments("battery level 0", madrid().battery(0.0), null, strings()),
                arguments("battery level 100", madrid().battery(100.0), null, strings()),
                arguments(
                        "battery level -0.1",
                        madrid().battery(-0.1),
                        INVALID_FIELD,
                        strings("battery_level -0.1", "0..100")),
                arguments(
                        "battery level 100.1",
                        madrid().battery(100.1),
                        INVALID_FIELD,
                        strings("battery_level 100.1", "0..100")),
                arguments(
                        "battery level NaN", madrid().battery(Double.NaN), INVALID_FIELD, strings("battery_level NaN")),
                arguments("accuracy absent", madrid().accuracy(null), null, strings()),
                arguments("accuracy 0", madrid().accuracy(0.0), null, strings()),
                arguments("accuracy -0.1", madrid().accuracy(-0.1), INVALID_FIELD, strings("accuracy_m -0.1")),
                arguments("accuracy NaN", madrid().accuracy(Double.NaN), INVALID_FIELD, strings("accuracy_m NaN")),
                arguments("speed 200 (the maximum)", madrid().speed(200), null, strings()),
                arguments(
                        "speed 200.1",
                        madrid().speed(200.1),
                        SPEED_TOO_HIGH,
                        strings("200.1 km/h", "maximum of 200 km/h")),
                arguments(
                        "event time 30 s after receive time",
                        madrid().receivedAtPlus(Duration.ofSeconds(30)),
                        null,
                        strings()),
                arguments(
                        "event time 30.001 s after receive time",
                        madrid().receivedAtPlus(Duration.ofMillis(30_001)),
                        EVENT_TIME_IN_FUTURE,
                        strings(
                                "2024-05-01T10:00:32.001Z",
                                "is 30.001s after",
                                "2024-05-01T10:00:02Z",
                                "clock skew is 30s")),
                arguments(
                        "event time 7 d before receive time",
                        madrid().receivedAtPlus(Duration.ofDays(-7)),
                        null,
                        strings()),
                arguments(
                        "event time 7 d 1 ms before receive time",
                        madrid().receivedAtPlus(Duration.ofDays(-7).minusMillis(1)),
                        EVENT_TIME_TOO_OLD,
                        strings("2024-04-24T10:00:01.999Z", "is 604800.001s before", "maximum age is 7d")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("statelessRules")
    void eachStatelessRuleAtItsLimit(
            String name, PositionBuilder position, RejectionReason expected, String[] detailFragments) {
        Optional<Rejection> verdict = EVERYWHERE.validate(position.build(), RECEIVED_AT);

        if (expected == null) {
            assertThat(verdict).isEmpty();
        } else {
            assertThat(verdict).hasValueSatisfying(rejection -> {
                assertThat(rejection.reason()).isEqualTo(expected);
                assertThat(rejection.detail()).contains(detailFragments);
            });
        }
    }

    static Stream<Arguments> ruleOrder() {
        Duration future = Duration.ofMinutes(5);
        Duration old = Duration.ofDays(-30);
        return Stream.of(
                arguments(
                        "vehicle id before invalid coordinates",
                        madrid().vehicle("VH\n1").latitude(95),
                        INVALID_VEHICLE_ID),
                arguments(
                        "invalid coordinates before invalid field",
                        madrid().latitude(95).heading(400),
                        INVALID_COORDINATES),
                arguments("invalid field before speed", madrid().heading(400).speed(500), INVALID_FIELD),
                arguments("speed before event time", madrid().speed(500).receivedAtPlus(future), SPEED_TOO_HIGH),
                arguments(
                        "future event time before region",
                        madrid().receivedAtPlus(future).at(48.8566, 2.3522),
                        EVENT_TIME_IN_FUTURE),
                arguments(
                        "old event time before region",
                        madrid().receivedAtPlus(old).at(48.8566, 2.3522),
                        EVENT_TIME_TOO_OLD),
                arguments("region last", madrid().at(48.8566, 2.3522), OUTSIDE_REGION));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ruleOrder")
    void firstFailingRuleWins(String name, PositionBuilder position, RejectionReason expected) {
        assertThat(DEFAULTS.validate(position.build(), RECEIVED_AT))
                .map(Rejection::reason)
                .contains(expected);
    }

    @Test
    void payloadVehicleIdMustBeTheOneOfItsMqttTopic() {
        Position position = madrid().vehicle("VH-0001").build();

        assertThat(DEFAULTS.validate(position, RECEIVED_AT, "fleet/VH-0001/position"))
                .isEmpty();
        assertThat(DEFAULTS.validate(position, RECEIVED_AT, null))
                .as("no topic: a record produced straight into Kafka")
                .isEmpty();
        assertThat(DEFAULTS.validate(position, RECEIVED_AT, "fleet/VH-0002/position"))
                .contains(new Rejection(
                        VEHICLE_ID_MISMATCH,
                        "vehicle_id 'VH-0001' differs from 'VH-0002' of MQTT topic 'fleet/VH-0002/position'"));
        assertThat(DEFAULTS.validate(position, RECEIVED_AT, "fleet/../VH-0001/position"))
                .map(Rejection::reason)
                .contains(VEHICLE_ID_MISMATCH);
        assertThat(DEFAULTS.validate(madrid().vehicle("VH\r\n").build(), RECEIVED_AT, "fleet/VH-0001/position"))
                .as("the format is checked first")
                .map(Rejection::reason)
                .contains(INVALID_VEHICLE_ID);
    }

    @Test
    void aCustomVehicleIdPatternIsMatchedWhole() {
        PositionValidator strict = new PositionValidator(
                ValidationRules.from(ConfigSource.of(Map.of(ValidationRules.VEHICLE_ID_PATTERN, "VH-[0-9]{4}"))));

        assertThat(strict.validate(madrid().vehicle("VH-0001").build(), RECEIVED_AT))
                .isEmpty();
        assertThat(strict.validate(madrid().vehicle("VH-00011").build(), RECEIVED_AT))
                .map(Rejection::reason)
                .contains(INVALID_VEHICLE_ID);
    }

    /**
     * The receive time is the Kafka record timestamp, which a producer sets: any value, however absurd, gets a verdict
     * with a readable detail, never an arithmetic overflow (the incident of an endless restart loop).
     */
    @Test
    void absurdReceiveTimesGetAVerdictNotAnOverflow() {
        Position position = madrid().build();

        assertThat(DEFAULTS.validate(position, Instant.ofEpochMilli(Long.MIN_VALUE)))
                .hasValueSatisfying(rejection -> {
                    assertThat(rejection.reason()).isEqualTo(EVENT_TIME_IN_FUTURE);
                    assertThat(rejection.detail()).containsPattern("is \\d+s after the receive time");
                });
        assertThat(DEFAULTS.validate(position, Instant.MAX))
                .map(Rejection::reason)
                .contains(EVENT_TIME_TOO_OLD);
        assertThat(DEFAULTS.validate(position, Instant.MIN))
                .map(Rejection::reason)
                .contains(EVENT_TIME_IN_FUTURE);
    }

    @Test
    void outsideRegionNamesTheCoordinatesAndTheRegion() {
        assertThat(DEFAULTS.validate(madrid().at(35.7595, -5.834).build(), RECEIVED_AT))
                .contains(new Rejection(
                        OUTSIDE_REGION,
                        "latitude 35.7595, longitude -5.834 is outside the Iberia operating region (bundled),"
                                + " 10 km buffer"));
    }

    @Test
    void verdictDependsOnTheReceiveTimeNotTheWallClock() {
        Instant longAgo = Instant.parse("2019-03-01T08:00:00Z");
        Position position = madrid().eventTime(longAgo).build();

        assertThat(DEFAULTS.validate(position, longAgo.plusSeconds(1))).isEmpty();
        assertThat(DEFAULTS.validate(position, longAgo.plus(Duration.ofDays(8))))
                .map(Rejection::reason)
                .contains(EVENT_TIME_TOO_OLD);
    }

    @ParameterizedTest(name = "{0} bytes")
    @CsvSource({"0, true", "4096, true", "4097, false", "1048576, false"})
    void payloadSize(int bytes, boolean accepted) {
        Optional<Rejection> verdict = DEFAULTS.checkPayloadSize(bytes);

        if (accepted) {
            assertThat(verdict).isEmpty();
        } else {
            assertThat(verdict)
                    .contains(new Rejection(
                            PAYLOAD_TOO_LARGE,
                            "payload of " + bytes + " bytes is larger than the limit of 4096 bytes"));
        }
    }

    @Test
    void negativePayloadSizeIsAProgrammingError() {
        assertThatThrownBy(() -> DEFAULTS.checkPayloadSize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String[] strings(String... values) {
        return values;
    }
}
