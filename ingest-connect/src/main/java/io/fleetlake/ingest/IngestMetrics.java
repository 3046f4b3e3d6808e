package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress metrics of a source task, registered through Connect's plugin metrics so that they appear in the worker's
 * metrics (JMX {@code kafka.connect:type=plugins,connector=<name>,task=<n>}) exactly while the task runs, and read back
 * by the health check and the supervisor of this worker ({@link #read}).
 *
 * <table>
 *   <caption>Metrics of each task</caption>
 *   <tr><th>name</th><th>meaning</th></tr>
 *   <tr><td>{@value #RECEIVED}</td><td>MQTT messages received since the task started</td></tr>
 *   <tr><td>{@value #WRITTEN}</td><td>records Kafka acknowledged (their messages acknowledged to MQTT)</td></tr>
 *   <tr><td>{@value #DEAD_LETTERED}</td><td>dead letters Kafka acknowledged</td></tr>
 *   <tr><td>{@value #PENDING}</td><td>messages received and not yet acknowledged</td></tr>
 *   <tr><td>{@value #OLDEST_PENDING_AGE}</td><td>milliseconds the oldest of those has waited; 0 when none</td></tr>
 *   <tr><td>{@value #MQTT_CONNECTED}</td><td>1 while the MQTT client is connected, else 0</td></tr>
 * </table>
 */
public final class IngestMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(IngestMetrics.class);

    public static final String RECEIVED = "mqtt-messages-received-total";
    public static final String WRITTEN = "kafka-records-written-total";
    public static final String DEAD_LETTERED = "dead-letters-written-total";
    public static final String PENDING = "messages-pending";
    public static final String OLDEST_PENDING_AGE = "oldest-pending-age-ms";
    public static final String MQTT_CONNECTED = "mqtt-connected";

    /** Connect's JMX domain and the group of plugin metrics. */
    static final String JMX_DOMAIN = "kafka.connect";

    static final String PLUGIN_GROUP = "plugins";

    private IngestMetrics() {}

    /** The live values of one task. */
    interface Source {
        long received();

        long written();

        long deadLettered();

        long pending();

        long oldestPendingAgeMillis();

        boolean mqttConnected();
    }

    /** Registers the metrics of one task; Connect removes them when the task stops. */
    static void register(PluginMetrics metrics, Source source) {
        requireNonNull(metrics, "metrics is null");
        requireNonNull(source, "source is null");
        add(metrics, RECEIVED, "MQTT messages received since the task started", source::received);
        add(metrics, WRITTEN, "Records Kafka acknowledged; their MQTT messages are acknowledged", source::written);
        add(metrics, DEAD_LETTERED, "Dead letters Kafka acknowledged", source::deadLettered);
        add(metrics, PENDING, "MQTT messages received and not yet acknowledged", source::pending);
        add(
                metrics,
                OLDEST_PENDING_AGE,
                "Milliseconds the oldest unacknowledged message has waited; 0 when none",
                source::oldestPendingAgeMillis);
        add(metrics, MQTT_CONNECTED, "1 while the MQTT client is connected", () -> source.mqttConnected() ? 1 : 0);
    }

    private static void add(PluginMetrics metrics, String name, String description, LongSupplier value) {
        MetricName metricName = metrics.metricName(name, description, new LinkedHashMap<>());
        try {
            metrics.addMetric(metricName, (Gauge<Long>) (config, now) -> value.getAsLong());
        } catch (IllegalArgumentException e) {
            // An earlier instance of this task that Connect abandoned after its graceful-stop timeout still holds the
            // name in the worker's registry until its thread ends. The new instance must move data all the same:
            // metrics are how it is watched, never a reason for it not to run.
            LOG.warn(
                    "Task metric {} {} is still registered by an earlier instance of this task that has not stopped;"
                            + " this instance runs without it until the worker restarts ({})",
                    metricName.name(),
                    metricName.tags(),
                    e.getMessage());
        }
    }

    /** The progress of every task of {@code connectorName} running in this JVM, by task number. */
    public static Map<Integer, TaskProgress> read(String connectorName) {
        return read(ManagementFactory.getPlatformMBeanServer(), connectorName);
    }

    static Map<Integer, TaskProgress> read(MBeanServer server, String connectorName) {
        ObjectName pattern;
        try {
            // Connect quotes a tag value only when it holds characters JMX reserves; connector names here never do.
            pattern = new ObjectName(JMX_DOMAIN + ":type=" + PLUGIN_GROUP + ",connector=" + connectorName + ",task=*");
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("Connector name " + connectorName + " cannot be looked up in JMX", e);
        }
        Map<Integer, TaskProgress> progress = new HashMap<>();
        for (ObjectName name : server.queryNames(pattern, null)) {
            int taskId = Integer.parseInt(name.getKeyProperty("task"));
            try {
                progress.put(
                        taskId,
                        new TaskProgress(
                                taskId,
                                number(server, name, RECEIVED),
                                number(server, name, WRITTEN),
                                number(server, name, DEAD_LETTERED),
                                number(server, name, PENDING),
                                Duration.ofMillis(number(server, name, OLDEST_PENDING_AGE)),
                                number(server, name, MQTT_CONNECTED) == 1));
            } catch (InstanceNotFoundException e) {
                // The task stopped between the query and the read: it is not running here any more.
            } catch (JMException e) {
                throw new IllegalStateException("Cannot read the progress metrics " + name + " from JMX", e);
            }
        }
        return progress;
    }

    private static long number(MBeanServer server, ObjectName name, String attribute) throws JMException {
        Object value = server.getAttribute(name, attribute);
        if (!(value instanceof Number number)) {
            throw new IllegalStateException(name + " has no numeric attribute " + attribute + ": " + value);
        }
        return number.longValue();
    }
}
