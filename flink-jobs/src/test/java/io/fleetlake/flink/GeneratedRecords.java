package io.fleetlake.flink;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PositionCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Generates raw records for the property test of the per-record path, reproducibly from a seed: random bytes, valid
 * Avro and JSON positions and mutations of them, positions with extreme values in every field, and plausible traffic of
 * a small fleet with resends, conflicting resends, GPS jumps, republished dead letters and records from the wrong MQTT
 * topic or none. Every record has the shape the Kafka source gives the pipeline.
 */
final class GeneratedRecords {
    /** What a generated record was meant to exercise; for the failure message. */
    enum Kind {
        RANDOM_BYTES,
        MUTATED_AVRO,
        DECLARED_LENGTH,
        MUTATED_JSON,
        EXTREME_VALUES,
        FLEET_TRAFFIC,
        RESEND,
        CONFLICT,
        JUMP,
        REPROCESSED,
        WRONG_TOPIC
    }

    /**
     * One generated record and what it was meant to exercise.
     *
     * @param sent the position its payload encodes, when the generator encoded one unchanged (what the oracle of
     *     resends compares); null for bytes it made up or mutated
     */
    record Generated(Kind kind, RawRecord record, Position sent) {
        Generated(Kind kind, RawRecord record) {
            this(kind, record, null);
        }
    }

    /** A fleet fix as it was sent, for resends of it. */
    private record Sent(RawRecord record, Position position) {}

    private static final Instant BASE = Instant.parse("2026-11-29T08:00:00Z");
    private static final double[] EXTREME_DOUBLES = {
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.MAX_VALUE,
        -Double.MAX_VALUE,
        Double.MIN_VALUE,
        -0.0,
        0.0,
        90.0,
        90.000_000_1,
        -180.0,
        180.000_000_1,
        360.0,
        1e308,
        -1e-308,
        200.0,
        200.000_001,
        10_000.0,
        -1_000.000_1
    };
    private static final long[] EXTREME_MILLIS = {
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        Long.MIN_VALUE + 1,
        Long.MAX_VALUE - 1,
        0,
        -1,
        315_964_800_000L - 1,
        315_964_800_000L,
        253_402_300_799_999L,
        253_402_300_800_000L,
        9_000_000_000_000_000_000L
    };
    private static final String[] ODD_VEHICLE_IDS = {
        "",
        " ",
        "VH\r\nSET x 1",
        "../etc/passwd",
        "VH/1",
        "VH+1",
        "VH#1",
        "VH 1",
        "VH-ñ",
        "\u0000",
        "\uD800",
        "VH-1\t",
        "x".repeat(65),
        "y".repeat(3_000),
        "a._-" + "9".repeat(60)
    };

    private final SplittableRandom random;
    private final PositionCodec codec = PositionCodec.bundled();
    private final List<String> fleet = new ArrayList<>();
    private final Position[] lastFix;
    private final List<Sent> sentFixes = new ArrayList<>();
    private long offset;

    GeneratedRecords(long seed, int fleetSize) {
        this.random = new SplittableRandom(seed);
        for (int i = 0; i < fleetSize; i++) {
            fleet.add(String.format(Locale.ROOT, "VH-%04d", i));
        }
        this.lastFix = new Position[fleetSize];
    }

    List<String> fleet() {
        return fleet;
    }

    Generated next() {
        int dice = random.nextInt(100);
        if (dice < 12) {
            return new Generated(Kind.RANDOM_BYTES, raw(randomBytes(), randomKey(), randomTopic(), receiveTime()));
        }
        if (dice < 15) {
            return new Generated(Kind.DECLARED_LENGTH, declaredLength());
        }
        if (dice < 27) {
            Position position = extremePosition();
            return new Generated(
                    Kind.MUTATED_AVRO,
                    raw(mutate(avro(position)), position.vehicleId(), topic(position.vehicleId()), receiveTime()));
        }
        if (dice < 42) {
            Position position = random.nextBoolean() ? extremePosition() : plausiblePosition();
            return new Generated(
                    Kind.MUTATED_JSON,
                    raw(mutateJson(json(position)), position.vehicleId(), topic(position.vehicleId()), receiveTime()));
        }
        if (dice < 55) {
            Position position = extremePosition();
            if (random.nextBoolean()) {
                byte[] payload = jsonWithRawEventTime(position);
                return new Generated(
                        Kind.EXTREME_VALUES,
                        raw(payload, position.vehicleId(), topic(position.vehicleId()), receiveTime()));
            }
            Encoded encoded = avroEncoded(position);
            return new Generated(
                    Kind.EXTREME_VALUES,
                    raw(encoded.payload(), position.vehicleId(), topic(position.vehicleId()), receiveTime()),
                    // Avro writes every value of a fleet vehicle's position as it is (an odd id may not survive).
                    fleet.contains(position.vehicleId()) ? encoded.position() : null);
        }
        if (dice < 63 && !sentFixes.isEmpty()) {
            Sent original = earlierFix();
            return new Generated(
                    Kind.RESEND, again(original.record(), original.record().reprocessedFrom()), original.position());
        }
        if (dice < 67 && !sentFixes.isEmpty()) {
            return conflict();
        }
        if (dice < 72) {
            return fleetFix(Kind.JUMP);
        }
        if (dice < 76 && !sentFixes.isEmpty()) {
            Sent original = earlierFix();
            return new Generated(
                    Kind.REPROCESSED,
                    again(original.record(), "gps.dlq.positions/0/" + random.nextInt(1000)),
                    original.position());
        }
        if (dice < 80) {
            Position position = plausiblePosition();
            String topic = random.nextBoolean() ? null : topic(fleet.get(random.nextInt(fleet.size())));
            Encoded encoded = avroEncoded(position);
            return new Generated(
                    Kind.WRONG_TOPIC,
                    raw(encoded.payload(), position.vehicleId(), topic, receivedAfter(position)),
                    encoded.position());
        }
        return fleetFix(Kind.FLEET_TRAFFIC);
    }

    /**
     * A fix sent before: half the time one of the last few (a device retry, within any de-duplication memory), else
     * any of the last thousands (often beyond it).
     */
    private Sent earlierFix() {
        int recent = Math.min(sentFixes.size(), 16);
        return random.nextBoolean()
                ? sentFixes.get(sentFixes.size() - 1 - random.nextInt(recent))
                : sentFixes.get(random.nextInt(sentFixes.size()));
    }

    /**
     * An Avro single-object payload with a known fingerprint whose {@code vehicle_id} declares a length the body cannot
     * hold: near {@code Integer.MAX_VALUE}, near this JVM's heap, negative, or one more than the bytes that follow.
     */
    private RawRecord declaredLength() {
        long heap = Runtime.getRuntime().maxMemory();
        int following = random.nextInt(0, 64);
        long[] lengths = {
            Integer.MAX_VALUE,
            Integer.MAX_VALUE - 8,
            Integer.MAX_VALUE - random.nextInt(1_000),
            heap,
            heap - 1 - random.nextInt(1_000),
            heap / 2,
            heap + random.nextInt(1_000),
            -1,
            -random.nextLong(1, Long.MAX_VALUE),
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            following + 1
        };
        long length = lengths[random.nextInt(lengths.length)];
        byte[] header = Arrays.copyOf(avro(plausiblePosition()), 10);
        byte[] body = new byte[10];
        int size = 0;
        for (long zigZag = (length << 1) ^ (length >> 63); ; zigZag >>>= 7) {
            if ((zigZag & ~0x7FL) == 0) {
                body[size++] = (byte) zigZag;
                break;
            }
            body[size++] = (byte) ((zigZag & 0x7F) | 0x80);
        }
        byte[] rest = new byte[following];
        random.nextBytes(rest);
        byte[] payload = Arrays.copyOf(header, header.length + size + following);
        System.arraycopy(body, 0, payload, header.length, size);
        System.arraycopy(rest, 0, payload, header.length + size, following);
        String vehicle = fleet.get(random.nextInt(fleet.size()));
        return raw(payload, vehicle, topic(vehicle), receiveTime());
    }

    /** The next fix of a fleet vehicle, a second or so after its last one; a jump lands 500 km away. */
    private Generated fleetFix(Kind kind) {
        boolean jump = kind == Kind.JUMP;
        int vehicle = random.nextInt(fleet.size());
        Position last = lastFix[vehicle];
        Instant eventTime = last == null
                ? BASE.plusSeconds(random.nextInt(3_600))
                : last.eventTime().plusMillis(random.nextInt(-2_000, 5_000));
        double latitude =
                last == null ? 40.0 + random.nextDouble() : last.latitude() + random.nextDouble(-0.0005, 0.0005);
        double longitude =
                last == null ? -4.0 + random.nextDouble() : last.longitude() + random.nextDouble(-0.0005, 0.0005);
        if (jump) {
            latitude = 41.3874;
            longitude = 2.1686;
        }
        Position position = new Position(
                fleet.get(vehicle),
                eventTime,
                latitude,
                longitude,
                random.nextDouble(0, 120),
                random.nextDouble(0, 360),
                random.nextBoolean() ? null : random.nextDouble(0, 2_000),
                random.nextBoolean() ? null : random.nextDouble(1, 30),
                random.nextBoolean() ? null : random.nextInt(0, 40),
                random.nextBoolean() ? null : random.nextDouble(0, 100));
        if (!jump) {
            lastFix[vehicle] = position;
        }
        Encoded encoded = random.nextBoolean() ? avroEncoded(position) : new Encoded(json(position), position);
        RawRecord record =
                raw(encoded.payload(), position.vehicleId(), topic(position.vehicleId()), receivedAfter(position));
        sentFixes.add(new Sent(record, encoded.position()));
        if (sentFixes.size() > 5_000) {
            sentFixes.remove(0);
        }
        return new Generated(kind, record, encoded.position());
    }

    /** The same event time as an earlier fix of the vehicle, somewhere else. */
    private Generated conflict() {
        Sent original = earlierFix();
        Position first = original.position();
        Position moved = new Position(
                first.vehicleId(),
                first.eventTime(),
                first.latitude() + 0.001,
                first.longitude(),
                first.speedKmh(),
                first.headingDeg(),
                first.altitudeM(),
                first.accuracyM(),
                first.satellites(),
                first.batteryLevel());
        Encoded encoded = avroEncoded(moved);
        return new Generated(
                Kind.CONFLICT,
                raw(
                        encoded.payload(),
                        moved.vehicleId(),
                        topic(moved.vehicleId()),
                        original.record().timestamp()),
                encoded.position());
    }

    private RawRecord again(RawRecord original, String reprocessedFrom) {
        return new RawRecord(
                Topics.RAW_POSITIONS,
                original.partition(),
                offset++,
                original.timestamp(),
                original.key(),
                original.value(),
                original.mqttTopic(),
                original.mqttReceivedAt(),
                reprocessedFrom);
    }

    private Position plausiblePosition() {
        return new Position(
                fleet.get(random.nextInt(fleet.size())),
                BASE.plusMillis(random.nextLong(0, 86_400_000)),
                36 + random.nextDouble(8),
                -9 + random.nextDouble(12),
                random.nextDouble(0, 150),
                random.nextDouble(0, 360),
                null,
                null,
                null,
                null);
    }

    /** Every field drawn from its extremes, or plausible, independently. */
    private Position extremePosition() {
        String vehicleId = random.nextInt(4) == 0
                ? ODD_VEHICLE_IDS[random.nextInt(ODD_VEHICLE_IDS.length)]
                : fleet.get(random.nextInt(fleet.size()));
        return new Position(
                vehicleId,
                extremeInstant(),
                extremeOr(40.4),
                extremeOr(-3.7),
                extremeOr(50),
                extremeOr(90),
                random.nextInt(3) == 0 ? null : extremeOr(650),
                random.nextInt(3) == 0 ? null : extremeOr(5),
                random.nextInt(3) == 0 ? null : extremeInt(),
                random.nextInt(3) == 0 ? null : extremeOr(80));
    }

    private double extremeOr(double plausible) {
        return random.nextInt(3) == 0 ? EXTREME_DOUBLES[random.nextInt(EXTREME_DOUBLES.length)] : plausible;
    }

    private int extremeInt() {
        int[] values = {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0, 12, 255, 256};
        return values[random.nextInt(values.length)];
    }

    /** Near the limits of epoch milliseconds in a long (Avro) and of the rules, or plausible. */
    private Instant extremeInstant() {
        if (random.nextInt(3) == 0) {
            return Instant.ofEpochMilli(EXTREME_MILLIS[random.nextInt(EXTREME_MILLIS.length)]);
        }
        return BASE.plusMillis(random.nextLong(-10 * 86_400_000L, 10 * 86_400_000L));
    }

    /** Mostly soon after the event, sometimes any value a producer could set as the Kafka timestamp. */
    private Instant receiveTime() {
        if (random.nextInt(8) == 0) {
            return Instant.ofEpochMilli(EXTREME_MILLIS[random.nextInt(EXTREME_MILLIS.length)]);
        }
        return BASE.plusMillis(random.nextLong(0, 86_400_000));
    }

    private Instant receivedAfter(Position position) {
        return position.eventTime().plusMillis(random.nextInt(0, 3_000));
    }

    private byte[] avro(Position position) {
        return avroEncoded(position).payload();
    }

    /** Avro of the newest schema version, or of version 1, which has no battery level. */
    private Encoded avroEncoded(Position position) {
        if (random.nextInt(3) == 0) {
            return new Encoded(codec.encodeAvro(position, codec.schemas().version(1)), position.withBatteryLevel(null));
        }
        return new Encoded(codec.encodeAvro(position), position);
    }

    /** A payload and the position it carries. */
    private record Encoded(byte[] payload, Position position) {}

    private byte[] json(Position position) {
        return codec.encodeJson(position);
    }

    /**
     * JSON with {@code event_time} as a raw number, which may be any long or beyond, and the ISO extremes of {@link
     * Instant}.
     */
    private byte[] jsonWithRawEventTime(Position position) {
        String text = new String(json(position), StandardCharsets.UTF_8);
        String eventTime =
                switch (random.nextInt(6)) {
                    case 0 -> Long.toString(EXTREME_MILLIS[random.nextInt(EXTREME_MILLIS.length)]);
                    case 1 -> "92233720368547758070";
                    case 2 -> "\"" + Instant.MAX + "\"";
                    case 3 -> "\"" + Instant.MIN + "\"";
                    case 4 -> "1e30";
                    default -> Long.toString(random.nextLong());
                };
        return text.replaceFirst("\"event_time\":\"[^\"]*\"", "\"event_time\":" + eventTime)
                .getBytes(StandardCharsets.UTF_8);
    }

    private byte[] randomBytes() {
        int length = random.nextInt(20) == 0 ? random.nextInt(10_000) : random.nextInt(64);
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        if (length > 2 && random.nextBoolean()) {
            // Often enough, the Avro single-object header, so that the decoder reaches the body.
            bytes[0] = (byte) 0xC3;
            bytes[1] = 0x01;
        }
        return bytes;
    }

    /** Bit flips, cuts, insertions and a forged schema fingerprint. */
    private byte[] mutate(byte[] payload) {
        byte[] bytes = payload.clone();
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations && bytes.length > 0; i++) {
            switch (random.nextInt(5)) {
                case 0 -> bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
                case 2 -> {
                    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(16));
                    random.nextBytes(longer);
                    System.arraycopy(bytes, 0, longer, 0, bytes.length);
                    bytes = longer;
                }
                case 3 -> {
                    if (bytes.length > 10) {
                        bytes[2 + random.nextInt(8)] = (byte) random.nextInt(256);
                    }
                }
                default -> {
                    if (bytes.length > 11) {
                        // A string or array length of the body made huge or negative.
                        bytes[10 + random.nextInt(bytes.length - 10)] = (byte) (random.nextBoolean() ? 0x7F : 0xFF);
                    }
                }
            }
        }
        return bytes;
    }

    /** Character edits, duplicate keys, trailing garbage, huge numbers, deep nesting, wrong types. */
    private byte[] mutateJson(byte[] payload) {
        String text = new String(payload, StandardCharsets.UTF_8);
        int mutations = 1 + random.nextInt(2);
        for (int i = 0; i < mutations; i++) {
            text = switch (random.nextInt(10)) {
                case 0 ->
                    text.isEmpty()
                            ? text
                            : new StringBuilder(text)
                                    .deleteCharAt(random.nextInt(text.length()))
                                    .toString();
                case 1 ->
                    new StringBuilder(text)
                            .insert(random.nextInt(text.length() + 1), (char) random.nextInt(0x20, 0x7F))
                            .toString();
                case 2 -> text.replaceFirst("\\{", "{\"latitude\":1.5,");
                case 3 -> text + (random.nextBoolean() ? " garbage" : "{}");
                case 4 -> text.replaceFirst("\"speed_kmh\":[^,}]*", "\"speed_kmh\":1" + "0".repeat(400));
                case 5 -> text.replaceFirst("\"heading_deg\":[^,}]*", "\"heading_deg\":1e999");
                case 6 ->
                    text.replaceFirst("\"latitude\":[^,}]*", "\"latitude\":" + "[".repeat(2_000) + "]".repeat(2_000));
                case 7 -> text.replaceFirst("\"vehicle_id\":\"[^\"]*\"", "\"vehicle_id\":" + oddJsonValue());
                case 8 -> text.replaceFirst("\"satellites\":[^,}]*", "\"satellites\":" + oddJsonValue());
                default -> text.replaceFirst("\"event_time\":\"[^\"]*\"", "\"event_time\":" + oddJsonValue());
            };
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private String oddJsonValue() {
        String[] values = {
            "null",
            "true",
            "{}",
            "[]",
            "\"\"",
            "-0",
            "NaN",
            "\"NaN\"",
            "12.5",
            "9223372036854775808",
            "\"\\u0000\"",
            "\"" + "z".repeat(3_000) + "\""
        };
        return values[random.nextInt(values.length)];
    }

    private String randomKey() {
        return random.nextInt(4) == 0 ? null : fleet.get(random.nextInt(fleet.size()));
    }

    private String randomTopic() {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "fleet/../position";
            default -> topic(fleet.get(random.nextInt(fleet.size())));
        };
    }

    private static String topic(String vehicleId) {
        return "fleet/" + vehicleId + "/position";
    }

    private RawRecord raw(byte[] value, String key, String mqttTopic, Instant receivedAt) {
        return new RawRecord(
                Topics.RAW_POSITIONS,
                0,
                offset++,
                receivedAt,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value,
                mqttTopic,
                random.nextInt(10) == 0 ? null : receivedAt.toEpochMilli() - random.nextInt(100),
                null);
    }
}
