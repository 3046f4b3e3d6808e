package io.fleetlake.stack.component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/** Health probes shared by the components. */
public final class HealthProbes {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
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
            try (Jedis jedis = new Jedis(uri, (int) PROBE_TIMEOUT.toMillis())) {
                return "PONG".equals(jedis.ping());
            } catch (JedisException e) {
                return false;
            }
        };
    }

    /**
     * The log file contains a line with {@code text}; for components whose own readiness line is more precise than
     * any probe from outside (the launcher starts every log file empty).
     */
    public static BooleanSupplier logContains(Path logFile, String text) {
        return () -> {
            if (!Files.isRegularFile(logFile)) {
                return false;
            }
            try (Stream<String> lines = Files.lines(logFile, StandardCharsets.UTF_8)) {
                return lines.anyMatch(line -> line.contains(text));
            } catch (IOException | UncheckedIOException e) {
                return false;
            }
        };
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
}
