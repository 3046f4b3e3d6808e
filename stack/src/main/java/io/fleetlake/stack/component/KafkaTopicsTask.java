package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One-shot set-up: creates the pipeline's Kafka topics when they do not exist yet. */
public final class KafkaTopicsTask implements Component {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicsTask.class);

    private final String bootstrapServers;
    private final List<NewTopic> topics;
    private final Set<String> dependencies;
    private volatile boolean done;

    /** @param topics each with its partitions, replication factor and configuration (for example compaction) */
    public KafkaTopicsTask(String bootstrapServers, List<NewTopic> topics, Set<String> dependencies) {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.topics = List.copyOf(requireNonNull(topics, "topics is null"));
        this.dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
    }

    @Override
    public String name() {
        return "kafka-topics";
    }

    @Override
    public Set<String> dependencies() {
        return dependencies;
    }

    @Override
    public void start() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            for (NewTopic topic : topics) {
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                    LOG.info("Created topic {} with {} partitions", topic.name(), topic.numPartitions());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Cannot create topic " + topic.name() + ": " + e.getCause(), e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers + " did not create topics within 30 s", e);
        }
        done = true;
    }

    @Override
    public boolean isHealthy() {
        return done;
    }

    @Override
    public Optional<String> failure() {
        return Optional.empty();
    }

    @Override
    public String endpoint() {
        return "";
    }

    @Override
    public Optional<java.nio.file.Path> logFile() {
        return Optional.empty();
    }

    @Override
    public void stop() {
        done = false;
    }
}
