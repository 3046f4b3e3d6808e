package io.fleetlake.servers.kafka;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the Kafka broker as its own process until the process is told to stop. */
@Command(
        name = "kafka-broker",
        mixinStandardHelpOptions = true,
        description = "Runs a single-node Kafka broker (KRaft combined mode) with the kafka.* configuration.")
public final class KafkaBrokerMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokerMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Kafka leaves non-daemon threads behind after a failed start: exit explicitly.
        System.exit(new CommandLine(new KafkaBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        long startNanos = System.nanoTime();
        KafkaBroker broker;
        try {
            broker = new KafkaBroker(KafkaBrokerConfig.from(config.load()));
            broker.start();
        } catch (ConfigException e) {
            // The message names the key, the value and where it came from; a stack trace would only hide it.
            LOG.error("Kafka broker not started: {}", e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            LOG.error("Kafka broker failed to start: {}", e.getMessage(), e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                broker.close();
                                LOG.info("Kafka broker stopped");
                            } catch (RuntimeException e) {
                                LOG.error("Kafka broker did not stop cleanly: {}", e.getMessage(), e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "kafka-broker-shutdown"));
        LOG.info("Kafka broker started in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        LOG.info("Kafka broker ready on {}", broker.bootstrapServers());
        stopped.await();
        return 0;
    }
}
