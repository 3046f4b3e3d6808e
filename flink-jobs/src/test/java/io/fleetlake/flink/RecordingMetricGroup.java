package io.fleetlake.flink;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/** A metric group that keeps the counters and gauges registered on it, so that a test can read them. */
public final class RecordingMetricGroup extends UnregisteredMetricsGroup {
    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<String, Gauge<?>> gauges = new HashMap<>();

    @Override
    public Counter counter(String name) {
        return counter(name, new SimpleCounter());
    }

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        counters.put(name, counter);
        return counter;
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        gauges.put(name, gauge);
        return gauge;
    }

    public Object gaugeValue(String name) {
        return gauges.get(name).getValue();
    }

    public long count(String name) {
        return counters.get(name).getCount();
    }
}
