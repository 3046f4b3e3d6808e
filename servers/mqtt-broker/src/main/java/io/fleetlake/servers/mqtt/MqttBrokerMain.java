package io.fleetlake.servers.mqtt;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the MQTT broker as its own process until the process is told to stop. */
@Command(
        name = "mqtt-broker",
        mixinStandardHelpOptions = true,
        description = "Runs an MQTT 3.1.1/5 broker (HiveMQ CE, file persistence) with the mqtt.* configuration.")
public final class MqttBrokerMain implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // HiveMQ's threads are not daemons: exit explicitly, also after a failed start.
        System.exit(new CommandLine(new MqttBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("MQTT broker", shutdown -> {
            MqttBroker broker = shutdown.closes(new MqttBroker(MqttBrokerConfig.from(config.load())));
            broker.start();
            return StartedServer.on(broker.address());
        });
    }
}
