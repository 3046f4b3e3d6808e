package io.fleetlake.operations.health;

import io.fleetlake.common.process.LogFiles;
import io.fleetlake.redis.RedisConnections;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/** Health probes shared by the components. */
public final class HealthProbes {
    /** How long a probe waits for a connection and for an answer. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

    private HealthProbes() {}

    /** Something accepts TCP connections on the address. */
    public static BooleanSupplier tcp(String host, int port) {
        return () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
                return true;
            } catch (IOException e) {
                return false;
            }
        };
    }

    /** Kafka answers a metadata request with at least one broker. */
    public static BooleanSupplier kafka(String bootstrapServers) {
        return () -> {
            Map<String, Object> properties = Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis());
            try (Admin admin = Admin.create(properties)) {
                return !admin.describeCluster()
                        .nodes()
                        .get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .isEmpty();
            } catch (ExecutionException | TimeoutException | KafkaException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        };
    }

    /** Redis answers PING, with the credentials the URI carries. */
    public static BooleanSupplier redis(URI uri) {
        return () -> {
            try (Jedis jedis = RedisConnections.single(uri, PROBE_TIMEOUT)) {
                return "PONG".equals(jedis.ping());
            } catch (JedisException e) {
                return false;
            }
        };
    }

    /**
     * The current run's part of the log file contains a line with {@code text}; for components whose own readiness
     * line is more precise than any probe from outside. Logs are appended to at every start, so only lines after the
     * last start marker ({@link LogFiles#START_MARKER}) count; the probe reads only what was added since its previous
     * call.
     */
    public static BooleanSupplier logContains(Path logFile, String text) {
        return new LogLineProbe(logFile, text);
    }

    /** A GET answers 200 and its body satisfies the predicate. */
    public static BooleanSupplier http(URI uri, Predicate<String> body) {
        return () -> {
            HttpRequest request =
                    HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET().build();
            try {
                HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200 && body.test(response.body());
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        };
    }

    /**
     * The probe a URI names: {@code http(s)://...} a GET answering 200, {@code tcp://host:port} a TCP connection,
     * {@code redis://...} a PING, {@code kafka://host:port} a metadata request. For health checks configured by URI.
     *
     * @throws IllegalArgumentException for another scheme
     */
    public static BooleanSupplier forUri(URI uri) {
        String scheme = String.valueOf(uri.getScheme());
        return switch (scheme) {
            case "http", "https" -> http(uri, body -> true);
            case "tcp" -> tcp(uri.getHost(), uri.getPort());
            case "redis" -> redis(uri);
            case "kafka" -> kafka(uri.getHost() + ":" + uri.getPort());
            default ->
                throw new IllegalArgumentException(
                        "Cannot probe " + uri + ": use an http, https, tcp, redis or kafka URI");
        };
    }

    /** Follows a log file like {@code tail -f}: whole lines only, starting over when the file was rotated. */
    private static final class LogLineProbe implements BooleanSupplier {
        private final Path logFile;
        private final String text;
        private long position; // guarded by this: bytes of whole lines already read
        private boolean found; // guarded by this: the text appeared after the last start marker

        LogLineProbe(Path logFile, String text) {
            this.logFile = logFile;
            this.text = text;
        }

        @Override
        public synchronized boolean getAsBoolean() {
            if (!Files.isRegularFile(logFile)) {
                return false;
            }
            try (FileChannel channel = FileChannel.open(logFile, StandardOpenOption.READ)) {
                if (channel.size() < position) {
                    // Rotated: the file is a new one.
                    position = 0;
                    found = false;
                }
                channel.position(position);
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                long read = position;
                while (channel.read(buffer) > 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        byte next = buffer.get();
                        read++;
                        if (next == '\n') {
                            accept(line.toString(StandardCharsets.UTF_8));
                            line.reset();
                            position = read;
                        } else {
                            line.write(next);
                        }
                    }
                    buffer.clear();
                }
                return found;
            } catch (IOException | UncheckedIOException e) {
                return false;
            }
        }

        private void accept(String line) {
            if (LogFiles.isStartMarker(line)) {
                found = false;
            } else if (line.contains(text)) {
                found = true;
            }
        }
    }
}
