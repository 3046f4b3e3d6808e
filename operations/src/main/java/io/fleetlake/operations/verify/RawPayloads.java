package io.fleetlake.operations.verify;

import io.fleetlake.model.Position;
import io.fleetlake.model.RecordFailures;
import io.fleetlake.model.codec.DecodeResult;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the tools that read raw records one at a time ({@code fleet verify}, the bench) read the position a payload
 * carries, with the pipeline's codec.
 */
public final class RawPayloads {
    private static final Logger LOG = LoggerFactory.getLogger(RawPayloads.class);

    private RawPayloads() {}

    /**
     * The position of a raw payload, or empty when it does not decode. A failure of the decoder on the payload that
     * {@link RecordFailures} counts as the record's (an exception, a {@link StackOverflowError}, a heap {@link
     * OutOfMemoryError}) makes it undecodable too, as the pipeline dead-letters it, and is logged: one payload cannot
     * stop a verification or a measurement.
     */
    public static Optional<Position> position(Function<byte[], DecodeResult> decoder, byte[] payload) {
        if (payload == null) {
            return Optional.empty();
        }
        try {
            return decoder.apply(payload) instanceof DecodeResult.Decoded decoded
                    ? Optional.of(decoded.position())
                    : Optional.empty();
        } catch (Throwable failure) {
            RecordFailures.rethrowUnlessPerRecord(failure);
            LOG.warn("A raw payload of {} bytes counts as undecodable: decoding it failed", payload.length, failure);
            return Optional.empty();
        }
    }
}
