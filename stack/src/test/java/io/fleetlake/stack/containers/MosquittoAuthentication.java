package io.fleetlake.stack.containers;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.mqtt.PrincipalRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;

/**
 * Keeps the Mosquitto container's password and ACL files ({@link ContainerDefinitions#mosquittoAuthentication}) in step
 * with the stack's MQTT registry, as the embedded broker reads it: the files are rendered from the registry each time
 * the container is created ({@link #file}), and while it runs, a change of the registry is copied into it within
 * {@value #PERIOD_SECONDS} s, followed by SIGHUP to the broker, which reads both files again without a restart. So a
 * principal added, rotated or revoked while the stack runs counts within seconds, as with compose's {@code kill -s HUP
 * mosquitto}; connections already open stay until they end, as with Mosquitto in compose.
 */
final class MosquittoAuthentication {
    private static final Logger LOG = LoggerFactory.getLogger(MosquittoAuthentication.class);
    static final long PERIOD_SECONDS = 1;
    // Owner-only: the image's entry point, and reloadCommand after each copy, give the files to the broker's user.
    private static final int OWNER_ONLY = 0100600;

    private final Supplier<PrincipalRegistry> registry;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "mosquitto-authentication");
        thread.setDaemon(true);
        return thread;
    });
    // Guarded by this.
    private ScheduledFuture<?> task;
    private Map<String, String> copied = Map.of();

    MosquittoAuthentication(Supplier<PrincipalRegistry> registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** The files as the registry has them now. */
    Map<String, String> render() {
        return ContainerDefinitions.mosquittoAuthentication(registry.get());
    }

    /**
     * The file at {@code path} ({@value ContainerDefinitions#MOSQUITTO_PASSWORD_FILE} or {@value
     * ContainerDefinitions#MOSQUITTO_ACL_FILE}), rendered from the registry when it is copied, that is each time the
     * container is created: a container started again begins with the registry of that moment.
     */
    Transferable file(String path) {
        requireNonNull(path, "path is null");
        if (!render().containsKey(path)) {
            throw new IllegalArgumentException(path + " is not one of Mosquitto's authentication files");
        }
        return new Transferable() {
            @Override
            public long getSize() {
                return getBytes().length;
            }

            @Override
            public byte[] getBytes() {
                return render().get(path).getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public int getFileMode() {
                return OWNER_ONLY;
            }

            // Rendered once per copy, so that the size in the archive matches the content.
            @Override
            public void transferTo(TarArchiveOutputStream archive, String destination) {
                Transferable.of(getBytes(), OWNER_ONLY).transferTo(archive, destination);
            }

            @Override
            public String getDescription() {
                return "Mosquitto's " + path + " rendered from the stack's MQTT registry";
            }
        };
    }

    /**
     * What runs in the container after the files were copied in again: they belong to root then, and the broker, which
     * runs as {@code mosquitto}, must read them; then SIGHUP to the broker, the container's first process. No secret:
     * the files hold password hashes, and they are not on the command line.
     */
    static List<String> reloadCommand() {
        return List.of(
                "sh",
                "-c",
                "chown mosquitto:mosquitto " + ContainerDefinitions.MOSQUITTO_PASSWORD_FILE + " "
                        + ContainerDefinitions.MOSQUITTO_ACL_FILE + " && kill -HUP 1");
    }

    /** Starts following the registry for {@code container}, which has just started; again after each start. */
    synchronized void follow(GenericContainer<?> container) {
        requireNonNull(container, "container is null");
        // The files the container started with are not known exactly (the registry may have changed since): the first
        // round copies them again.
        copied = Map.of();
        if (task == null || task.isDone()) {
            task = executor.scheduleWithFixedDelay(
                    () -> reloadIfChanged(container), PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        }
    }

    private synchronized void reloadIfChanged(GenericContainer<?> container) {
        if (!container.isRunning()) {
            // Stopped: follow() starts again with the next start.
            task.cancel(false);
            return;
        }
        try {
            Map<String, String> current = render();
            if (current.equals(copied)) {
                return;
            }
            current.forEach(
                    (path, content) -> container.copyFileToContainer(Transferable.of(content, OWNER_ONLY), path));
            ContainerServers.execute(container, reloadCommand());
            copied = current;
            LOG.info("Mosquitto reloaded the stack's MQTT principals");
        } catch (RuntimeException e) {
            // The next round tries again; a test that needs the change waits for it and fails with its own message.
            LOG.warn(
                    "Cannot bring Mosquitto's password and ACL files up to date (retrying in {} s): {}",
                    Duration.ofSeconds(PERIOD_SECONDS).toSeconds(),
                    e.toString());
        }
    }
}
