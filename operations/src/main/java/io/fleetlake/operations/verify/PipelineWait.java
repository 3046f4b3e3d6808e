package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;

/**
 * How {@code fleet verify --wait} went: it waits until the pipeline has committed past every record the raw topic held
 * when it began. Not catching up within the limit is a failure of the verification (the pipeline is stopped, stalled
 * or too slow), whatever the reconciliation then finds.
 *
 * @param limit how long it waited at most
 * @param target per partition, the offset after the last record the raw topic held when the wait began
 * @param committed per partition, the pipeline's committed offset when the wait ended
 * @param behind records between the committed offsets and the target when the wait ended; 0 when it caught up
 */
public record PipelineWait(Duration limit, Map<Integer, Long> target, Map<Integer, Long> committed, long behind) {
    public PipelineWait {
        requireNonNull(limit, "limit is null");
        target = Map.copyOf(requireNonNull(target, "target is null"));
        committed = Map.copyOf(requireNonNull(committed, "committed is null"));
    }

    public boolean caughtUp() {
        return behind == 0;
    }

    /** One line for people. */
    public String describe() {
        return caughtUp()
                ? "the pipeline committed past offsets " + target + " within " + limit.toSeconds() + " s"
                : String.format(
                        java.util.Locale.ROOT,
                        "the pipeline did not commit past offsets %s within %d s: it is at %s, %,d records behind",
                        target,
                        limit.toSeconds(),
                        committed,
                        behind);
    }
}
