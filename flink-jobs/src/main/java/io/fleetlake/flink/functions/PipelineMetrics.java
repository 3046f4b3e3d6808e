package io.fleetlake.flink.functions;

/**
 * Names of the pipeline's accounting counters, registered in the metric group of the operator that counts them.
 *
 * <p>Every record read is counted exactly once more, by the operator that decides its fate, so that once every read
 * record has been processed:
 *
 * <pre>
 * recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated
 * </pre>
 *
 * (each counter summed over its operators and subtasks). See {@code FleetPipelineJob} for where each is counted.
 */
public final class PipelineMetrics {
    /** Raw records read from the source (decode-positions). */
    public static final String RECORDS_READ = "recordsRead";
    /** Positions that passed the last rejection point and go to the sinks (reject-implausible-jumps). */
    public static final String RECORDS_ACCEPTED = "recordsAccepted";
    /** Records sent to the rejection side output, counted by each operator that rejects. */
    public static final String RECORDS_REJECTED = "recordsRejected";
    /** Group of one counter per {@link io.fleetlake.model.RejectionReason} name, next to {@link #RECORDS_REJECTED}. */
    public static final String REJECTION_REASON_GROUP = "rejectionReason";
    /** Device resends (same vehicle, event time and content as an accepted position) dropped (deduplicate-resends). */
    public static final String RESENDS_DEDUPLICATED = "resendsDeduplicated";
    /**
     * Fixes accepted although implausible against the vehicle's previous accepted fix, because they agree with the
     * fix rejected just before (reject-implausible-jumps). Informational: these are part of {@link #RECORDS_ACCEPTED}.
     */
    public static final String JUMP_BASELINE_RESETS = "jumpBaselineResets";

    /** Answers of the planning API handed to the pipeline (planning-routes-source). Informational. */
    public static final String ROUTE_POLLS_SUCCEEDED = "routePollsSucceeded";
    /** Fetches of the planning API that failed or timed out and yielded no update (planning-routes-source). */
    public static final String ROUTE_POLLS_FAILED = "routePollsFailed";
    /** Route assignments and withdrawals applied to the enrichment's state (enrich-positions). Informational. */
    public static final String ROUTE_UPDATES = "routeUpdates";
    /**
     * Positions enriched with a route fetched longer ago than {@code enrichment.route-stale-after} (enrich-positions):
     * the planning API has been unreachable. Informational: these are part of {@link #RECORDS_ACCEPTED}.
     */
    public static final String STALE_ENRICHMENTS = "staleEnrichments";

    private PipelineMetrics() {}
}
