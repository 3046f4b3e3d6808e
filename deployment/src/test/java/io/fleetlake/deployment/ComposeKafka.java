package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.common.process.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/** The compose deployment's Kafka for the tests: the grants of acls.conf, a client's login, the real broker. */
final class ComposeKafka {
    static final String ACLS = "deploy/kafka/acls.conf";
    static final String SECURITY = "deploy/kafka/security.properties";
    static final String CLUSTER_ID = "1J9Bl5L-Rw6BBu8apNyTtA";

    private ComposeKafka() {}

    /**
     * One line of acls.conf, {@code <user> <operation> <resource type> <pattern> <name>}; a prefixed grant covers every
     * name that starts with its own.
     */
    record Grant(String user, String operation, String type, boolean prefixed, String name) {
        boolean allows(String user, String operation, String type, String name) {
            return this.user.equals(user)
                    && this.operation.equals(operation)
                    && this.type.equals(type)
                    && (prefixed ? name.startsWith(this.name) : name.equals(this.name));
        }

        /** The ACL the broker holds for this grant. */
        AclBinding binding() {
            return new AclBinding(
                    new ResourcePattern(
                            ResourceType.fromString(type.replace("-", "_")),
                            name,
                            prefixed ? PatternType.PREFIXED : PatternType.LITERAL),
                    new AccessControlEntry(
                            "User:" + user,
                            "*",
                            AclOperation.fromString(operation
                                    .replaceAll("([a-z])([A-Z])", "$1_$2")
                                    .toUpperCase(Locale.ROOT)),
                            AclPermissionType.ALLOW));
        }
    }

    /** The grants of acls.conf, each line checked for its five fields and a known pattern type. */
    static List<Grant> grants() {
        List<String> lines;
        try {
            lines = Files.readAllLines(Repository.file(ACLS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Grant> grants = new ArrayList<>();
        for (String line : lines) {
            String stripped = line.strip();
            if (stripped.isEmpty() || stripped.startsWith("#")) {
                continue;
            }
            String[] fields = stripped.split("\\s+");
            assertThat(fields).as(line).hasSize(5);
            assertThat(fields[3]).as(line).isIn("literal", "prefixed");
            grants.add(new Grant(fields[0], fields[1], fields[2], fields[3].equals("prefixed"), fields[4]));
        }
        return grants;
    }

    /** A client logged in as {@code user}, the way every component logs in ({@link KafkaSaslCredentials}). */
    static Map<String, Object> client(String bootstrapServers, String user, String password) {
        Map<String, Object> properties = new HashMap<>(new KafkaSaslCredentials(user, password).clientProperties());
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        properties.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        return properties;
    }

    /**
     * Formats {@code data} and starts Kafka's own server (KRaft, combined mode) with {@code properties}.
     *
     * @param scramArguments credentials that come with the storage ({@code kafka-storage format --add-scram})
     */
    static KafkaRaftServer start(Properties properties, Path data, List<String> scramArguments) throws Exception {
        KafkaConfig config = KafkaConfig.fromProps(properties, false);
        ByteArrayOutputStream formatOutput = new ByteArrayOutputStream();
        new Formatter()
                .setPrintStream(new PrintStream(formatOutput, true, StandardCharsets.UTF_8))
                .setNodeId(1)
                .setClusterId(CLUSTER_ID)
                .setControllerListenerName("CONTROLLER")
                .setDirectories(List.of(data.toString()))
                .setMetadataLogDirectory(data.toString())
                .setScramArguments(scramArguments)
                .run();
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return server;
    }

    static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }
}
