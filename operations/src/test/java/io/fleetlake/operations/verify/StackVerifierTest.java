package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.operations.FailingDecoders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** How {@code fleet verify} reads the key of one raw record, without a stack: the IT covers the rest. */
class StackVerifierTest {
    private static final Position POSITION = new Position(
            "VH-0042", Instant.parse("2026-11-30T10:00:00Z"), 40.4168, -3.7038, 42.0, 90.0, null, null, null, null);

    private final PositionCodec codec = PositionCodec.bundled();

    @Test
    void aPayloadDeclaringALengthItCannotHoldIsUndecodable() {
        byte[] poison = FailingDecoders.declaringTwoBillionBytes(codec.encodeAvro(POSITION));

        assertThat(StackVerifier.content(codec::decode, poison)).isEmpty();
        assertThat(StackVerifier.content(codec::decode, codec.encodeAvro(POSITION))
                        .map(FixContent::key))
                .hasValue(FixKey.of("VH-0042", POSITION.eventTime()));
    }

    /**
     * A failure of decoding one raw payload (an exception, a real {@link OutOfMemoryError}, a real {@link
     * StackOverflowError}) makes that record undecodable, as the pipeline dead-letters it; the next one is read.
     */
    @ParameterizedTest(name = "{0}")
    @FieldSource("io.fleetlake.operations.FailingDecoders#PER_RECORD_KINDS")
    void aFailureOnOnePayloadMakesItUndecodableAndTheNextOneIsRead(String kind) {
        Function<byte[], DecodeResult> decoder = failingOnX(kind);

        assertThat(StackVerifier.content(decoder, "X".getBytes(StandardCharsets.US_ASCII))
                        .map(FixContent::key))
                .isEmpty();
        assertThat(StackVerifier.content(decoder, codec.encodeJson(POSITION)).map(FixContent::key))
                .hasValue(FixKey.of("VH-0042", POSITION.eventTime()));
    }

    @Test
    void anErrorNoRecordCausesStopsVerify() {
        assertThatThrownBy(() -> StackVerifier.content(failingOnX("linkage"), "X".getBytes(StandardCharsets.US_ASCII))
                        .map(FixContent::key))
                .isInstanceOf(NoClassDefFoundError.class);
    }

    private Function<byte[], DecodeResult> failingOnX(String kind) {
        return FailingDecoders.failingOnX(codec, kind);
    }
}
