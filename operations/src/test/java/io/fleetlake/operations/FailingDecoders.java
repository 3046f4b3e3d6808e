package io.fleetlake.operations;

import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import java.util.Arrays;
import java.util.function.Function;

/** Payloads and decoders that fail the way a poison record would, for the per-record guards of the CLI tools. */
public final class FailingDecoders {
    /** What a decoder raises on a payload starting with X. */
    public static final String[] PER_RECORD_KINDS = {"exception", "out of memory", "stack overflow"};

    private FailingDecoders() {}

    /**
     * The codec, except that a payload starting with X fails: {@code exception}, {@code out of memory} (a real one: an
     * array larger than the test JVM's heap of 1 GiB, refused at once), {@code stack overflow} (a real one), anything
     * else a {@link NoClassDefFoundError}, which no record causes.
     */
    public static Function<byte[], DecodeResult> failingOnX(PositionCodec codec, String kind) {
        return payload -> {
            if (payload[0] == 'X') {
                switch (kind) {
                    case "exception" -> throw new ArithmeticException("long overflow");
                    case "out of memory" -> payload[0] = (new byte[Integer.MAX_VALUE - 8])[0];
                    case "stack overflow" -> payload[0] = (byte) recurse(0);
                    default -> throw new NoClassDefFoundError("io/fleetlake/Missing");
                }
            }
            return codec.decode(payload);
        };
    }

    /**
     * The reported poison pill: the header of a valid Avro payload (its known schema fingerprint), then a {@code
     * vehicle_id} that declares 2,000,000,000 bytes (Avro's zig-zag varint) and nothing after it: 15 bytes.
     */
    public static byte[] declaringTwoBillionBytes(byte[] validPayload) {
        byte[] poison = Arrays.copyOf(validPayload, 15);
        System.arraycopy(new byte[] {(byte) 0x80, (byte) 0xD0, (byte) 0xAC, (byte) 0xF3, 0x0E}, 0, poison, 10, 5);
        return poison;
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }
}
