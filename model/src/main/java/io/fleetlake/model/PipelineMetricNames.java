package io.fleetlake.model;

/**
 * The fleet pipeline's Flink job name and the names of its counters, shared by the pipeline (flink-jobs), which
 * registers them, and every reader of the Flink REST API (the dashboard). Each counter is registered in the metric
 * group of the operator named in its description; Flink's REST API lists it as {@code <operator>.<counter>} per
 * subtask.
 *
 * <p>Every record read is counted exactly once more, by the operator that decides its fate (a record that a step fails
 * on is a rejection of reason {@link RejectionReason#PROCESSING_ERROR}), so that once every read record has been
 * processed:
 *
 * <pre>
 * recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated
 * </pre>
 *
 * (each counter summed over its operators and subtasks). Counters are not checkpointed: after a failover the restarted
 * tasks count from zero and count the replayed records again.
 */
public final class PipelineMetricNames {
    /** The name the pipeline's job runs under, in {@code /jobs/overview}. */
    public static final String JOB_NAME = "fleet-pipeline";

    /**
     * Flink's own job metric: how often the job was restarted since it was submitted, at {@code GET
     * /jobs/<job id>/metrics?get=numRestarts} of the pipeline's REST API. A job that keeps restarting (a real fault, for
     * example an unreachable Kafka, S3 or catalog) shows a growing count; a single bad record never restarts it.
     */
    public static final String NUM_RESTARTS = "numRestarts";

    /** Raw records read from the source (decode-positions). */
    public static final String RECORDS_READ = "recordsRead";
    /** Positions that passed the last rejection point and go to the sinks (vehicle-positions). */
    public static final String RECORDS_ACCEPTED = "recordsAccepted";
    /** Records sent to the rejection side output, counted by each operator that rejects. */
    public static final String RECORDS_REJECTED = "recordsRejected";
    /**
     * Group of one counter per {@link RejectionReason} name, next to {@link #RECORDS_REJECTED}: the counter of a reason
     * is {@code rejectionReason.<REASON>}.
     */
    public static final String REJECTION_REASON_GROUP = "rejectionReason";
    /** Device resends (same vehicle, event time and content as an accepted position) dropped (vehicle-positions). */
    public static final String RESENDS_DEDUPLICATED = "resendsDeduplicated";
    /**
     * Fixes accepted although implausible against the vehicle's previous accepted fix, because they agree with the
     * fix rejected just before (vehicle-positions). Informational: these are part of {@link #RECORDS_ACCEPTED}.
     */
    public static final String JUMP_BASELINE_RESETS = "jumpBaselineResets";

    /** Answers of the planning API handed to the pipeline (planning-routes-source). Informational. */
    public static final String ROUTE_POLLS_SUCCEEDED = "routePollsSucceeded";
    /** Fetches of the planning API that failed or timed out and yielded no update (planning-routes-source). */
    public static final String ROUTE_POLLS_FAILED = "routePollsFailed";
    /** Route assignments and withdrawals applied to the vehicles' state (vehicle-positions). Informational. */
    public static final String ROUTE_UPDATES = "routeUpdates";
    /**
     * Route updates of the planning API that could not be applied to a vehicle (vehicle-positions); the vehicle keeps
     * its previous route, and the failure is logged.
     */
    public static final String ROUTE_UPDATES_FAILED = "routeUpdatesFailed";
    /**
     * Vehicles forgotten after {@code pipeline.dedup-ttl} without any record or route update (vehicle-positions).
     * Informational.
     */
    public static final String VEHICLES_EXPIRED = "vehiclesExpired";
    /**
     * Minute windows whose row could not be built (vehicle-minutes): logged, the minute's row is missing and {@code
     * fleet backfill} recomputes it from {@code fleet.positions}. Expected to stay 0.
     */
    public static final String MINUTE_ROWS_FAILED = "minuteRowsFailed";
    /**
     * Dead letters larger than the dead-letter producer's request limit, written with their payload cut (headers
     * {@link MessageHeaders#DLQ_TRUNCATED}, {@link MessageHeaders#DLQ_ORIGINAL_SIZE}) (dead-letter-sink).
     */
    public static final String DEAD_LETTERS_TRUNCATED = "deadLettersTruncated";
    /**
     * Positions enriched with a route fetched longer ago than {@code enrichment.route-stale-after} (vehicle-positions):
     * the planning API has been unreachable. Informational: these are part of {@link #RECORDS_ACCEPTED}.
     */
    public static final String STALE_ENRICHMENTS = "staleEnrichments";

    /** Current-state updates that were newer than the stored state and replaced it (redis-current-state). */
    public static final String REDIS_UPDATES_APPLIED = "redisUpdatesApplied";
    /** Current-state updates that were not newer than the stored state and changed nothing (redis-current-state). */
    public static final String REDIS_UPDATES_IGNORED = "redisUpdatesIgnored";
    /** Failed attempts to write the current state to Redis; each is retried with backoff (redis-current-state). */
    public static final String REDIS_WRITE_FAILURES = "redisWriteFailures";
    /**
     * Gauge: vehicles whose newest update is not written to Redis yet (redis-current-state); stays high while Redis is
     * unavailable, and the dashboard's current state lags meanwhile.
     */
    public static final String REDIS_PENDING_VEHICLES = "redisPendingVehicles";
    /** Successful write requests to Redis, each carrying one batch of vehicles (redis-current-state). */
    public static final String REDIS_WRITES = "redisWrites";
    /**
     * Milliseconds spent in successful write requests to Redis (redis-current-state): with {@link #REDIS_WRITES}, the
     * mean write latency over any interval.
     */
    public static final String REDIS_WRITE_MILLIS = "redisWriteMillis";
    /** Gauge: milliseconds the last successful write request to Redis took (redis-current-state). */
    public static final String REDIS_LAST_WRITE_MILLIS = "redisLastWriteMillis";
    /** Gauge: vehicles in the last successful write request to Redis (redis-current-state). */
    public static final String REDIS_LAST_BATCH_SIZE = "redisLastBatchSize";

    private PipelineMetricNames() {}
}
