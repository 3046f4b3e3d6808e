package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.codec.PositionSchemas;
import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rules a position must pass, read from the {@code validation.*} keys. The pipeline and the dead-letter
 * reprocessing command both build them with {@link #from(ConfigSource)}, usually from one shared rules file, so a
 * reprocessed record gets the verdict the pipeline would give it.
 *
 * @param region where vehicles may be
 * @param maxSpeedKmh highest plausible reported speed
 * @param maxClockSkew how far a device clock may run ahead of the receive time
 * @param maxAge how old an event may be when it is received
 * @param maxPayloadBytes largest payload that is decoded at all
 * @param maxImpliedSpeedKmh highest speed implied by two consecutive fixes of one vehicle
 * @param jumpCheckMaxGap above this time between two fixes no jump verdict is given (the vehicle may have been carried)
 * @param vehicleIdPattern the whole vehicle id must match it; the id becomes a Kafka key, an MQTT topic level, a Redis key
 *     and an Iceberg bucket value, so control characters, separators and paths are refused
 * @param schemas the Position schemas payloads may be written with; build codecs with
 *     {@code new PositionCodec(rules.schemas())}
 */
public record ValidationRules(
        OperatingRegion region,
        double maxSpeedKmh,
        Duration maxClockSkew,
        Duration maxAge,
        int maxPayloadBytes,
        double maxImpliedSpeedKmh,
        Duration jumpCheckMaxGap,
        Pattern vehicleIdPattern,
        PositionSchemas schemas)
        implements Serializable {
    public static final String RULES_FILE = "validation.rules-file";
    public static final String REGION_FILE = "validation.region-file";
    public static final String REGION_BUFFER_KM = "validation.region-buffer-km";
    public static final String MAX_SPEED_KMH = "validation.max-speed-kmh";
    public static final String MAX_CLOCK_SKEW = "validation.max-clock-skew";
    public static final String MAX_AGE = "validation.max-age";
    public static final String MAX_PAYLOAD_BYTES = "validation.max-payload-bytes";
    public static final String MAX_IMPLIED_SPEED_KMH = "validation.max-implied-speed-kmh";
    public static final String JUMP_CHECK_MAX_GAP = "validation.jump-check-max-gap";
    public static final String EXTRA_SCHEMA_DIRECTORY = "validation.extra-schema-dir";
    public static final String VEHICLE_ID_PATTERN = "validation.vehicle-id-pattern";

    public static final double DEFAULT_REGION_BUFFER_KM = 10;
    public static final double DEFAULT_MAX_SPEED_KMH = 200;
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(30);
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(7);
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 4096;
    public static final double DEFAULT_MAX_IMPLIED_SPEED_KMH = 300;
    public static final Duration DEFAULT_JUMP_CHECK_MAX_GAP = Duration.ofMinutes(30);
    /** 1 to 64 letters, digits, dots, underscores or hyphens: no control characters, separators or paths. */
    public static final String DEFAULT_VEHICLE_ID_PATTERN = "[A-Za-z0-9._-]{1,64}";

    private static final long serialVersionUID = 1L;

    /** The keys a rules file may hold: every key but the rules file itself. */
    private static final Set<String> RULE_KEYS = Set.of(
            REGION_FILE,
            REGION_BUFFER_KM,
            MAX_SPEED_KMH,
            MAX_CLOCK_SKEW,
            MAX_AGE,
            MAX_PAYLOAD_BYTES,
            MAX_IMPLIED_SPEED_KMH,
            JUMP_CHECK_MAX_GAP,
            VEHICLE_ID_PATTERN,
            EXTRA_SCHEMA_DIRECTORY);

    public ValidationRules {
        requireNonNull(region, "region is null");
        requireNonNull(maxClockSkew, "maxClockSkew is null");
        requireNonNull(maxAge, "maxAge is null");
        requireNonNull(jumpCheckMaxGap, "jumpCheckMaxGap is null");
        requireNonNull(vehicleIdPattern, "vehicleIdPattern is null");
        requireNonNull(schemas, "schemas is null");
        requirePositiveSpeed(MAX_SPEED_KMH, maxSpeedKmh);
        if (maxClockSkew.isNegative()) {
            throw new ConfigException(MAX_CLOCK_SKEW + " = " + DetailText.duration(maxClockSkew)
                    + " is negative: use 0s or more, for example 30s");
        }
        requirePositiveDuration(MAX_AGE, maxAge, "7d");
        if (maxPayloadBytes < 1) {
            throw new ConfigException(MAX_PAYLOAD_BYTES + " = " + maxPayloadBytes
                    + " must be a positive number of bytes, for example 4096");
        }
        requirePositiveSpeed(MAX_IMPLIED_SPEED_KMH, maxImpliedSpeedKmh);
        requirePositiveDuration(JUMP_CHECK_MAX_GAP, jumpCheckMaxGap, "30m");
    }

    /** Every default: the bundled operating region with a 10 km buffer and the bundled schemas. */
    public static ValidationRules defaults() {
        return from(ConfigSource.empty());
    }

    /** Reads the {@code validation.*} keys, under them the keys of {@value #RULES_FILE}, and the region and schemas. */
    public static ValidationRules from(ConfigSource source) {
        requireNonNull(source, "source is null");
        RulesFileLayer layer = RulesFileLayer.load(source, RULE_KEYS);
        double bufferKm = layer.forKey(REGION_BUFFER_KM).doubleValue(REGION_BUFFER_KM, DEFAULT_REGION_BUFFER_KM);
        if (!(bufferKm >= 0) || Double.isInfinite(bufferKm)) {
            throw new ConfigException(REGION_BUFFER_KM + " = " + DetailText.number(bufferKm)
                    + " must be a distance of 0 km or more, for example 10");
        }
        OperatingRegion region = layer.path(REGION_FILE)
                .map(file -> OperatingRegion.fromGeoJson(file, bufferKm))
                .orElseGet(() -> OperatingRegion.bundled(bufferKm));
        PositionSchemas schemas = layer.path(EXTRA_SCHEMA_DIRECTORY)
                .map(directory -> ExtraSchemas.append(PositionSchemas.bundled(), directory))
                .orElseGet(PositionSchemas::bundled);
        return new ValidationRules(
                region,
                layer.forKey(MAX_SPEED_KMH).doubleValue(MAX_SPEED_KMH, DEFAULT_MAX_SPEED_KMH),
                layer.forKey(MAX_CLOCK_SKEW).duration(MAX_CLOCK_SKEW, DEFAULT_MAX_CLOCK_SKEW),
                layer.forKey(MAX_AGE).duration(MAX_AGE, DEFAULT_MAX_AGE),
                layer.forKey(MAX_PAYLOAD_BYTES).integer(MAX_PAYLOAD_BYTES, DEFAULT_MAX_PAYLOAD_BYTES),
                layer.forKey(MAX_IMPLIED_SPEED_KMH).doubleValue(MAX_IMPLIED_SPEED_KMH, DEFAULT_MAX_IMPLIED_SPEED_KMH),
                layer.forKey(JUMP_CHECK_MAX_GAP).duration(JUMP_CHECK_MAX_GAP, DEFAULT_JUMP_CHECK_MAX_GAP),
                vehicleIdPattern(
                        layer.forKey(VEHICLE_ID_PATTERN).string(VEHICLE_ID_PATTERN, DEFAULT_VEHICLE_ID_PATTERN)),
                schemas);
    }

    private static Pattern vehicleIdPattern(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ConfigException(VEHICLE_ID_PATTERN + " = " + regex + " is not a regular expression ("
                    + e.getDescription() + "); the default is " + DEFAULT_VEHICLE_ID_PATTERN);
        }
    }

    private static void requirePositiveSpeed(String key, double speedKmh) {
        if (!(speedKmh > 0) || Double.isInfinite(speedKmh)) {
            throw new ConfigException(key + " = " + DetailText.number(speedKmh)
                    + " must be a positive, finite speed in km/h, for example 200");
        }
    }

    private static void requirePositiveDuration(String key, Duration duration, String example) {
        if (duration.isNegative() || duration.isZero()) {
            throw new ConfigException(key + " = " + DetailText.duration(duration)
                    + " must be a positive duration, for example " + example);
        }
    }

    // PositionSchemas compares by identity; its versions compare by content, so two rule sets read from the same
    // configuration are equal.
    @Override
    public boolean equals(Object other) {
        return other instanceof ValidationRules rules
                && region.equals(rules.region)
                && Double.compare(maxSpeedKmh, rules.maxSpeedKmh) == 0
                && maxClockSkew.equals(rules.maxClockSkew)
                && maxAge.equals(rules.maxAge)
                && maxPayloadBytes == rules.maxPayloadBytes
                && Double.compare(maxImpliedSpeedKmh, rules.maxImpliedSpeedKmh) == 0
                && jumpCheckMaxGap.equals(rules.jumpCheckMaxGap)
                && vehicleIdPattern.pattern().equals(rules.vehicleIdPattern.pattern())
                && schemas.versions().equals(rules.schemas.versions());
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                region,
                maxSpeedKmh,
                maxClockSkew,
                maxAge,
                maxPayloadBytes,
                maxImpliedSpeedKmh,
                jumpCheckMaxGap,
                vehicleIdPattern.pattern(),
                schemas.versions());
    }

    @Override
    public String toString() {
        return "ValidationRules[region=" + region.description()
                + ", maxSpeedKmh=" + DetailText.number(maxSpeedKmh)
                + ", maxClockSkew=" + DetailText.duration(maxClockSkew)
                + ", maxAge=" + DetailText.duration(maxAge)
                + ", maxPayloadBytes=" + maxPayloadBytes
                + ", maxImpliedSpeedKmh=" + DetailText.number(maxImpliedSpeedKmh)
                + ", jumpCheckMaxGap=" + DetailText.duration(jumpCheckMaxGap)
                + ", vehicleIdPattern=" + vehicleIdPattern.pattern()
                + ", schemas="
                + schemas.versions().stream().map(SchemaVersion::file).toList()
                + "]";
    }
}
