package io.fleetlake.flink.sinks;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An in-memory current-state store with the newer-wins rule, able to fail a number of times, optionally after a number
 * of successful attempts.
 */
final class FakeCurrentStateStore implements CurrentStateStore, Serializable {
    private static final long serialVersionUID = 1L;

    final List<List<VehicleState>> batches = new ArrayList<>();
    final Map<String, VehicleState> stored = new HashMap<>();
    int successesBeforeFailures;
    int failuresLeft;
    int attempts;
    boolean closed;

    @Override
    public List<Boolean> applyNewerWins(List<VehicleState> updates, Instant updatedAt) {
        attempts++;
        if (successesBeforeFailures > 0) {
            successesBeforeFailures--;
        } else if (failuresLeft > 0) {
            failuresLeft--;
            throw new CurrentStateStoreException("connection refused", new IllegalStateException("refused"));
        }
        batches.add(List.copyOf(updates));
        List<Boolean> applied = new ArrayList<>();
        for (VehicleState update : updates) {
            VehicleState current = stored.get(update.vehicleId());
            boolean newer = current == null || update.isNewerThan(current);
            if (newer) {
                stored.put(update.vehicleId(), update);
            }
            applied.add(newer);
        }
        return applied;
    }

    /** Fails every attempt until {@link #recover()}. */
    void failUntilRecovered() {
        failuresLeft = Integer.MAX_VALUE;
    }

    void recover() {
        failuresLeft = 0;
    }

    @Override
    public void close() {
        closed = true;
    }
}
