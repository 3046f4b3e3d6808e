package io.fleetlake.stack;

/** The ports the embedded stack listens on, with the configuration key that sets each and its default. */
public enum StackPort {
    KAFKA("kafka.port", 19092),
    KAFKA_CONTROLLER("kafka.controller-port", 19093),
    S3("s3.port", 19000),
    MQTT("mqtt.port", 11883),
    /** The MQTT broker's TLS listener, for devices (certificate of the data folder's local CA unless configured). */
    MQTT_TLS("mqtt.tls-port", 18883),
    REDIS("redis.port", 16379),
    CATALOG("catalog.port", 18181),
    CONNECT("connect.port", 18083),
    FLINK("pipeline.rest-port", 18081),
    /** The JobManager's RPC port in the cluster pipeline mode, which the TaskManagers connect to. */
    FLINK_RPC("cluster.jobmanager-rpc-port", 18123),
    /** Trino's plain HTTP port: its internal requests and {@code GET /v1/info}; every client request is refused. */
    TRINO("trino.port", 18080),
    /** Trino's HTTPS port, the one clients use (a user and its password, the data folder's CA). */
    TRINO_HTTPS("trino.https-port", 18443),
    PLANNING("planning.port", 18090),
    DASHBOARD("dashboard.port", 18088),
    MAINTENANCE("maintenance.metrics-port", 18094),
    // Metrics endpoints (Prometheus text format) of the components that serve them on a port of their own.
    KAFKA_METRICS("kafka.metrics-port", 19094),
    MQTT_METRICS("mqtt.metrics-port", 18095),
    CONNECT_METRICS("connect.metrics-port", 18084),
    CATALOG_METRICS("catalog.metrics-port", 18182),
    PIPELINE_METRICS("pipeline.metrics-port", 18082),
    DASHBOARD_METRICS("dashboard.metrics-port", 18089),
    EXPORTER("exporter.port", 18096),
    PROMETHEUS("prometheus.port", 19090);

    private final String key;
    private final int defaultPort;

    StackPort(String key, int defaultPort) {
        this.key = key;
        this.defaultPort = defaultPort;
    }

    public String key() {
        return key;
    }

    public int defaultPort() {
        return defaultPort;
    }
}
