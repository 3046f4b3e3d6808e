package io.fleetlake.servers.mqtt;

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

/** Runs the MQTT broker as its own process until the process is told to stop. */
@Command(
        name = "mqtt-broker",
        mixinStandardHelpOptions = true,
        description = "Runs an MQTT 3.1.1/5 broker (HiveMQ CE, file persistence) with the mqtt.* configuration.")
public final class MqttBrokerMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(MqttBrokerMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // HiveMQ's threads are not daemons: exit explicitly, also after a failed start.
        System.exit(new CommandLine(new MqttBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        long startNanos = System.nanoTime();
        MqttBroker broker;
        try {
            broker = new MqttBroker(MqttBrokerConfig.from(config.load()));
            broker.start();
        } catch (ConfigException e) {
            // The message names the key, the value and where it came from; a stack trace would only hide it.
            LOG.error("MQTT broker not started: {}", e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            LOG.error("MQTT broker failed to start: {}", e.getMessage(), e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                broker.close();
                                LOG.info("MQTT broker stopped");
                            } catch (RuntimeException e) {
                                LOG.error("MQTT broker did not stop cleanly: {}", e.getMessage(), e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "mqtt-broker-shutdown"));
        LOG.info("MQTT broker started in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        LOG.info("MQTT broker ready on {}", broker.address());
        stopped.await();
        return 0;
    }
}
