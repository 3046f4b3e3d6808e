package io.fleetlake.flink.sinks;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/** Where the fleet's current state lives; the seam between the sink's batching and Redis. */
public interface CurrentStateStore extends AutoCloseable {
    /**
     * Applies each update atomically and only if its event time is strictly newer than the stored one, so that
     * applying the same or an older update again changes nothing.
     *
     * @param updates at most one update per vehicle
     * @param updatedAt written with each applied update
     * @return for each update, in order, whether it was applied
     * @throws CurrentStateStoreException when the store cannot be reached or refuses the batch; nothing is known
     *     about which updates were applied, and retrying the batch is safe
     */
    List<Boolean> applyNewerWins(List<VehicleState> updates, Instant updatedAt);

    @Override
    void close();

    /** Opens a store in the task that writes to it; serialisable so that it travels with the job graph. */
    @FunctionalInterface
    interface Factory extends Serializable {
        CurrentStateStore open();
    }
}
