package io.fleetlake.ingest.it;

import static java.util.Objects.requireNonNull;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.process.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server of this project (Kafka broker, MQTT broker) running as its own process from its module's jar and launch
 * class path, as the stack runs it, so that a test can pause it (SIGSTOP/SIGCONT) or kill it. Its output goes to a log
 * file under {@code target/it-logs}.
 */
final class ServerProcessUnderTest implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final String name;
    private final Process process;
    private final Path log;

    private ServerProcessUnderTest(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** The Kafka broker of {@code servers/kafka-broker} on free ports, data under {@code directory}. */
    static ServerProcessUnderTest kafka(Path directory) {
        int port = freePort();
        return start(
                "kafka",
                "fleet.module.kafka-broker",
                "server-kafka-broker",
                "io.fleetlake.servers.kafka.KafkaBrokerMain",
                Map.of(
                        "kafka.port", Integer.toString(port),
                        "kafka.controller-port", Integer.toString(freePort()),
                        "kafka.data-dir", directory.resolve("kafka").toString()),
                directory);
    }

    /** The MQTT broker of {@code servers/mqtt-broker} on a free port, with extra {@code mqtt.*} settings. */
    static ServerProcessUnderTest mqtt(Path directory, Map<String, String> settings) {
        Map<String, String> all = new java.util.TreeMap<>(settings);
        all.put("mqtt.port", Integer.toString(freePort()));
        all.put("mqtt.data-dir", directory.resolve("mqtt").toString());
        return start(
                "mqtt",
                "fleet.module.mqtt-broker",
                "server-mqtt-broker",
                "io.fleetlake.servers.mqtt.MqttBrokerMain",
                all,
                directory);
    }

    /**
     * The Connect worker of this module ({@code ConnectWorkerMain}) reading {@code configFile}, as the stack runs it:
     * its secrets are in the file, never on its command line.
     */
    static ServerProcessUnderTest connectWorker(Path directory, Path configFile) {
        return start(
                "connect",
                "fleet.module.ingest-connect",
                "ingest-connect",
                "io.fleetlake.ingest.ConnectWorkerMain",
                List.of("--config", configFile.toString()),
                directory);
    }

    /** The process's log file: everything it wrote to standard output and error. */
    Path log() {
        return log;
    }

    private static ServerProcessUnderTest start(
            String name,
            String moduleProperty,
            String artifactId,
            String mainClass,
            Map<String, String> settings,
            Path directory) {
        List<String> arguments = new ArrayList<>();
        settings.forEach((key, value) -> {
            arguments.add("--set");
            arguments.add(key + "=" + value);
        });
        return start(name, moduleProperty, artifactId, mainClass, arguments, directory);
    }

    private static ServerProcessUnderTest start(
            String name,
            String moduleProperty,
            String artifactId,
            String mainClass,
            List<String> arguments,
            Path directory) {
        String moduleDirectory = requireNonNull(
                System.getProperty(moduleProperty),
                moduleProperty + " is not set: run the integration tests through Maven (failsafe sets it)");
        Path target = Path.of(moduleDirectory, "target");
        Path classpathFile = target.resolve("launch").resolve("classpath.txt");
        // The exact main artifact: a module may also package its test classes (-tests.jar) beside it.
        String version = requireNonNull(
                System.getProperty("fleet.module.version"),
                "fleet.module.version is not set: run the integration tests through Maven (failsafe sets it)");
        Path jar = target.resolve(artifactId + "-" + version + ".jar");
        if (!Files.isRegularFile(jar) || !Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException("Module " + moduleDirectory + " is not packaged (" + jar + ", "
                    + classpathFile + "): build it with the reactor, as mvn -pl ingest-connect-it -am verify does");
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx384m");
        command.add("-cp");
        try {
            command.add(jar
                    + java.io.File.pathSeparator
                    + Files.readString(classpathFile).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        command.add(mainClass);
        command.addAll(arguments);
        Path log = Path.of("target", "it-logs", directory.getFileName() + "-" + name + ".log")
                .toAbsolutePath();
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            ServerProcessUnderTest server = new ServerProcessUnderTest(name, process, log);
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + ": " + command, e);
        }
    }

    private void awaitReady() {
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log);
                }
                return Files.readString(log, StandardCharsets.UTF_8).contains(" ready on ");
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The {@code host:port} from the process's ready line. */
    String address() {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            int start = text.lastIndexOf(" ready on ") + " ready on ".length();
            return text.substring(start, text.indexOf('\n', start)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing, like a hung server. */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT. */
    void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start();
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 30 s); resumes it first if it was paused. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        resume();
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    static int freePort() {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }
}
