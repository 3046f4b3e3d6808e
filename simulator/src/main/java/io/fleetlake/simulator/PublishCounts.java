package io.fleetlake.simulator;

/**
 * What a publisher has done so far.
 *
 * @param published messages handed to the MQTT client
 * @param acknowledged messages the broker confirmed with a successful PUBACK
 * @param failed messages that were refused or could not be delivered
 */
public record PublishCounts(long published, long acknowledged, long failed) {
    public static final PublishCounts NONE = new PublishCounts(0, 0, 0);

    public PublishCounts {
        if (published < 0 || acknowledged < 0 || failed < 0) {
            throw new IllegalArgumentException(
                    "Counts must not be negative: " + published + ", " + acknowledged + ", " + failed);
        }
    }

    /** Messages published and not yet acknowledged or failed. */
    public long inFlight() {
        return published - acknowledged - failed;
    }

    /** What happened since an earlier snapshot of the same publisher. */
    public PublishCounts since(PublishCounts earlier) {
        return new PublishCounts(
                published - earlier.published, acknowledged - earlier.acknowledged, failed - earlier.failed);
    }
}
