package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What one simulator run did.
 *
 * @param published messages handed to the MQTT client
 * @param acknowledged messages the broker acknowledged
 * @param failed messages refused or lost
 * @param vehicles fleet size
 * @param duration how long the run published
 */
public record SimulationSummary(long published, long acknowledged, long failed, int vehicles, Duration duration) {
    public SimulationSummary {
        requireNonNull(duration, "duration is null");
    }

    /** Messages whose fate was still unknown when the run ended (the close timeout passed first). */
    public long unconfirmed() {
        return published - acknowledged - failed;
    }

    /** Messages published per second over the run. */
    public double publishRate() {
        double seconds = duration.toNanos() / 1e9;
        return seconds > 0 ? published / seconds : 0;
    }

    /** Whether every published message was acknowledged. */
    public boolean complete() {
        return acknowledged == published;
    }
}
