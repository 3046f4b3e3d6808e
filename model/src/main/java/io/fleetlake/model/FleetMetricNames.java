package io.fleetlake.model;

/**
 * Prometheus names of the fleet's own series, shared by the components that serve them and whoever reads them
 * (deploy/prometheus rules, the Grafana dashboard, tests). Counters are named here without the {@code _total} the text
 * format adds. deploy/prometheus/README.md documents every series with its labels and the component that serves it;
 * the table maintenance service's names are in {@link MaintenanceMetricNames}.
 */
public final class FleetMetricNames {
    // fleet-exporter (stack module): what it reads from Kafka, the catalog, Redis and the REST APIs.

    /** Gauge {@code {component}}: 1 when the component's health probe passes. */
    public static final String COMPONENT_UP = "fleet_component_up";
    /** Gauge {@code {group, topic, partition}}: records between the committed offset and the last stable offset. */
    public static final String CONSUMER_LAG_RECORDS = "fleet_kafka_consumer_lag_records";
    /** Gauge {@code {group, topic, partition}}: age of the oldest record the group has not committed past. */
    public static final String CONSUMER_LAG_SECONDS = "fleet_kafka_consumer_lag_seconds";
    /** Gauge {@code {table}}: epoch seconds of the table's newest snapshot that added or removed data. */
    public static final String ICEBERG_LAST_COMMIT_TIMESTAMP = "fleet_iceberg_last_commit_timestamp_seconds";
    /** Gauge {@code {table}}: snapshots the table's metadata keeps. */
    public static final String ICEBERG_SNAPSHOTS = "fleet_iceberg_snapshots";
    /** Counter {@code {reason}}: dead letters appended to gps.dlq.positions since the exporter started. */
    public static final String DLQ_RECORDS = "fleet_dlq_records";
    /** Gauge: vehicles in {@code fleet:last_seen}. */
    public static final String REDIS_VEHICLES = "fleet_redis_vehicles";
    /** Gauge: age of the newest position in Redis. */
    public static final String REDIS_NEWEST_AGE = "fleet_redis_last_seen_newest_age_seconds";
    /** Gauge: age of the median vehicle's newest position in Redis. */
    public static final String REDIS_MEDIAN_AGE = "fleet_redis_last_seen_median_age_seconds";
    /** Gauge: age of the newest position of the vehicle seen longest ago. */
    public static final String REDIS_OLDEST_AGE = "fleet_redis_last_seen_oldest_age_seconds";
    /** Gauge: Redis' {@code used_memory}. */
    public static final String REDIS_MEMORY_USED = "fleet_redis_memory_used_bytes";
    /** Gauge: Redis' {@code maxmemory}; 0 when Redis has no limit. */
    public static final String REDIS_MEMORY_MAX = "fleet_redis_memory_max_bytes";
    /** Counter: commands Redis refused with {@code OOM} (memory full, nothing evicted) since it started. */
    public static final String REDIS_REFUSED_WRITES = "fleet_redis_oom_refusals";
    /** Gauge {@code {connector, state}}: 1 for the connector's current state, 0 for the others. */
    public static final String CONNECT_CONNECTOR_STATE = "fleet_connect_connector_state";
    /** Gauge {@code {connector, task, state}}: 1 for the task's current state. */
    public static final String CONNECT_TASK_STATE = "fleet_connect_task_state";
    /** Gauge: 1 when the Connect worker's {@code /ingest/health} passes (messages move). */
    public static final String INGEST_HEALTHY = "fleet_ingest_healthy";
    /** Gauge: 1 while the fleet-pipeline job is RUNNING. */
    public static final String PIPELINE_JOB_RUNNING = "fleet_pipeline_job_running";
    /** Gauge: the running job's checkpoint interval. */
    public static final String PIPELINE_CHECKPOINT_INTERVAL = "fleet_pipeline_checkpoint_interval_seconds";
    /** Gauge: epoch seconds of the newest completed checkpoint. */
    public static final String PIPELINE_LAST_CHECKPOINT_TIMESTAMP = "fleet_pipeline_last_checkpoint_timestamp_seconds";
    /** Gauge: epoch seconds of the job's last restart (failover). */
    public static final String PIPELINE_LAST_RESTART_TIMESTAMP = "fleet_pipeline_last_restart_timestamp_seconds";
    /** Gauge {@code {status}}: checks of the health report by outcome (OK, WARN, FAIL). */
    public static final String HEALTH_CHECKS = "fleet_health_checks";
    /** Gauge: epoch seconds of the exporter's latest reading. */
    public static final String EXPORTER_LAST_READING_TIMESTAMP = "fleet_exporter_last_reading_timestamp_seconds";

    // The REST catalog (iceberg-catalog), on catalog.metrics-port.

    /** Counter {@code {endpoint, status}}: requests answered. */
    public static final String CATALOG_REQUESTS = "fleet_catalog_requests";
    /** Counter {@code {endpoint}}: requests answered with a server error (5xx). */
    public static final String CATALOG_REQUEST_ERRORS = "fleet_catalog_request_errors";
    /** Histogram {@code {endpoint}}: time to answer. */
    public static final String CATALOG_REQUEST_DURATION = "fleet_catalog_request_duration_seconds";

    // The dashboard, on dashboard.metrics-port.

    /** Counter {@code {route, status}}: requests answered. */
    public static final String DASHBOARD_REQUESTS = "fleet_dashboard_requests";
    /** Histogram {@code {route}}: time to answer. */
    public static final String DASHBOARD_REQUEST_DURATION = "fleet_dashboard_request_duration_seconds";

    private FleetMetricNames() {}
}
