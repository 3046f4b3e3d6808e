package io.fleetlake.stack.metrics;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Prometheus JMX exporter agent ({@code io.prometheus.jmx:jmx_prometheus_javaagent}, copied to {@code
 * stack/target/agents} by the build) attached to a component's JVM: it serves the component's JMX metrics, renamed
 * by the rules file of {@code deploy/prometheus/jmx/}, on {@code host:port/metrics}. The compose deployment uses the
 * same rules files.
 */
public final class JmxExporterAgent {
    private static final Logger LOG = LoggerFactory.getLogger(JmxExporterAgent.class);
    private static final String AGENT = "target/agents/jmx_prometheus_javaagent.jar";

    private final FleetHome home;

    public JmxExporterAgent(FleetHome home) {
        this.home = requireNonNull(home, "home is null");
    }

    /**
     * The JVM option attaching the agent with {@code deploy/prometheus/jmx/<rules>}; none, with a warning, when the
     * stack module was not packaged (the component then runs without metrics rather than not at all).
     */
    public List<String> jvmOptions(String component, String host, int port, String rules) {
        Path agent = home.module("stack").resolve(AGENT);
        Path rulesFile = home.root()
                .resolve("deploy")
                .resolve("prometheus")
                .resolve("jmx")
                .resolve(rules);
        if (!Files.isRegularFile(agent) || !Files.isRegularFile(rulesFile)) {
            LOG.warn(
                    "{} runs without its metrics endpoint: {} or {} is missing (build with mvn package)",
                    component,
                    agent,
                    rulesFile);
            return List.of();
        }
        return List.of("-javaagent:" + agent + "=" + host + ":" + port + ":" + rulesFile);
    }
}
