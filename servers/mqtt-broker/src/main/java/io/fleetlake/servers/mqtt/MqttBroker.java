package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import com.hivemq.configuration.service.InternalConfigurations;
import com.hivemq.embedded.EmbeddedExtension;
import com.hivemq.embedded.EmbeddedHiveMQ;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.identity.Secrets;
import io.fleetlake.identity.mqtt.RegistryFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MQTT 3.1.1 and 5 broker (HiveMQ Community Edition) running in this JVM.
 *
 * <p>Sessions, subscriptions and queued QoS 1 messages are persisted to files under the data directory (unless
 * {@code mqtt.persistence} is {@code in-memory}), so a persistent session keeps its undelivered messages across a
 * broker restart. Packets above {@code mqtt.max-packet-size} are refused and a client may have at most
 * {@code mqtt.server-receive-maximum} publishes unacknowledged; the broker sends a subscriber up to
 * {@code mqtt.max-inflight-window} messages it has not acknowledged yet. The configuration file is regenerated from the
 * {@link MqttBrokerConfig} at every start.
 *
 * <p>Besides HiveMQ's own metrics, its metric registry holds the broker's accounting of device positions, which {@code
 * fleet verify} and the alert rules reconcile with Kafka: the QoS 1/2 position publishes accepted per listener ({@link
 * PositionAccounting}) and the messages held for the position subscribers ({@link PositionQueue}).
 *
 * <p>Every client authenticates as one of the fleet's MQTT principals and publishes and subscribes within its grant
 * ({@link IdentityEnforcement}, {@code mqtt.identity-file}); an optional TLS listener ({@code mqtt.tls-port}) serves a
 * certificate of the user's or of a local CA of the data folder.
 */
public final class MqttBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MqttBroker.class);
    private static final long START_TIMEOUT_SECONDS = 120;
    private static final long STOP_TIMEOUT_SECONDS = 60;
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final MqttBrokerConfig config;
    private EmbeddedHiveMQ hiveMq;

    public MqttBroker(MqttBrokerConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    public synchronized void start() {
        if (hiveMq != null) {
            throw new IllegalStateException("MQTT broker on " + address() + " is already started");
        }
        writeConfiguration(tlsKeyStore());
        // Not in config.xml: HiveMQ reads this limit from a static field of its internal configuration when it sends
        // to a subscriber. One broker runs per JVM (MqttBrokerMain), so setting it before the start is safe.
        InternalConfigurations.MAX_INFLIGHT_WINDOW_SIZE_MESSAGES = config.maxInflightWindow();
        // HiveMQ's logging bootstrap reconfigures Logback; this process logs through SLF4J to Log4j 2 instead.
        EmbeddedHiveMQ candidate = EmbeddedHiveMQ.builder()
                .withConfigurationFolder(config.configurationDirectory())
                .withDataFolder(config.persistenceDirectory())
                .withExtensionsFolder(config.extensionsDirectory())
                .withoutLoggingBootstrap()
                .withEmbeddedExtension(EmbeddedExtension.builder()
                        .withId("fleet-identity")
                        .withName("Fleet MQTT identity and position accounting")
                        .withVersion("1")
                        .withExtensionMain(new IdentityEnforcement(
                                new RegistryFile(config.identityFile()), config.identityReloadInterval()))
                        .build())
                .build();
        try {
            candidate.start().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            candidate.getMetricRegistry().register(PositionQueue.NAME, PositionQueue.of(candidate));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw closeAfterFailedStart(candidate, e);
        } catch (ExecutionException | TimeoutException e) {
            throw closeAfterFailedStart(candidate, e);
        }
        hiveMq = candidate;
    }

    public int port() {
        return config.port();
    }

    /** {@code host:port} of the MQTT TCP listener. */
    public String address() {
        return config.address();
    }

    @Override
    public synchronized void close() {
        if (hiveMq != null) {
            LOG.info("Stopping MQTT broker on {}", address());
            try {
                hiveMq.stop().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                hiveMq.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while stopping the MQTT broker on " + address(), e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("MQTT broker on " + address() + " did not stop cleanly", e);
            } finally {
                hiveMq = null;
            }
            LOG.info("MQTT broker stopped");
        }
    }

    /**
     * The TLS listener's key store, written at every start from the user's certificate and key or from the local CA's
     * (created in {@code <data-dir>/tls} on the first start), with a password of this start only.
     */
    private Optional<HiveMqConfiguration.KeyStoreFile> tlsKeyStore() {
        if (config.tls().isEmpty()) {
            return Optional.empty();
        }
        MqttBrokerConfig.Tls tls = config.tls().get();
        LocalCertificateAuthority.TlsFiles files = tls.certificate().isPresent()
                ? new LocalCertificateAuthority.TlsFiles(
                        tls.certificate().get(), tls.privateKey().orElseThrow())
                : LocalCertificateAuthority.ensure(tls.generatedDirectory(), tls.hostnames(), Clock.systemUTC());
        String password = Secrets.generate(new SecureRandom());
        Path path = config.configurationDirectory().resolve("tls-keystore.p12");
        try {
            OwnerOnlyFiles.createFolder(config.configurationDirectory());
            KeyStore store = LocalCertificateAuthority.keyStore(files, password.toCharArray());
            Files.deleteIfExists(path);
            Files.createFile(path, OWNER_ONLY);
            try (OutputStream output = Files.newOutputStream(path)) {
                store.store(output, password.toCharArray());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the TLS key store " + path + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot write the TLS key store " + path + ": " + e, e);
        }
        LOG.info(
                "MQTT TLS listener on {}:{} with {}",
                config.host(),
                tls.port(),
                tls.certificate().map(Path::toString).orElse("a certificate of the local CA " + tls.caCertificate()));
        return Optional.of(new HiveMqConfiguration.KeyStoreFile(path, password));
    }

    private void writeConfiguration(Optional<HiveMqConfiguration.KeyStoreFile> keyStore) {
        Path file = config.configurationDirectory().resolve("config.xml");
        try {
            OwnerOnlyFiles.createFolder(config.configurationDirectory());
            Files.createDirectories(config.persistenceDirectory());
            Files.createDirectories(config.extensionsDirectory());
            // Owner-only: it holds the key store's password.
            if (!Files.exists(file)) {
                Files.createFile(file, OWNER_ONLY);
            }
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(file, HiveMqConfiguration.render(config, keyStore), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write the HiveMQ configuration under " + MqttBrokerConfig.DATA_DIRECTORY + " "
                            + config.dataDirectory() + ": check the path and its permissions",
                    e);
        }
    }

    private IllegalStateException closeAfterFailedStart(EmbeddedHiveMQ candidate, Exception cause) {
        Throwable reason = cause instanceof ExecutionException && cause.getCause() != null ? cause.getCause() : cause;
        // HiveMQ logs why it stopped and then fails with an exception that often has no message.
        String description = reason.getMessage() != null
                ? reason.getMessage()
                : reason.getClass().getSimpleName() + " (see the HiveMQ errors logged before)";
        IllegalStateException failure =
                new IllegalStateException("MQTT broker failed to start on " + address() + ": " + description, reason);
        try {
            candidate.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.addSuppressed(e);
        } catch (ExecutionException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }
}
