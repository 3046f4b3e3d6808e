package io.fleetlake.stack.identity;

import static java.util.Objects.requireNonNull;

import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestPrincipals;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Path;

/**
 * The generated secrets of the embedded stack's service APIs, created on the first use in a data folder and kept
 * owner-only in {@code <data-dir>/secrets/} ({@link SecretFile}), like the MQTT secrets of {@link StackMqttIdentity}:
 *
 * <ul>
 *   <li>{@value #CONNECT_FILE}: the passwords of the Connect worker's REST principals, {@value
 *       ConnectRestPrincipals#ADMIN} (the worker itself, an operator) and {@value ConnectRestPrincipals#MONITOR}
 *       ({@code fleet status}, the exporter, the tests' probes);
 *   <li>{@value #PLANNING_FILE}: the bearer token of the planning API, which the pipeline's route client sends.
 * </ul>
 *
 * The secrets reach the components in their owner-only configuration files, never on a command line or in a log.
 */
public final class StackServiceSecrets {
    public static final String CONNECT_FILE = "connect.properties";
    public static final String PLANNING_FILE = "planning.properties";

    /** The name of the planning API's token in {@value #PLANNING_FILE}: the pipeline is its one client. */
    static final String PLANNING_TOKEN = "pipeline";

    private final Path secretsDirectory;

    private StackServiceSecrets(Path secretsDirectory) {
        this.secretsDirectory = requireNonNull(secretsDirectory, "secretsDirectory is null");
    }

    /** The secrets of the stack of {@code settings}; nothing is generated before it is asked for. */
    public static StackServiceSecrets of(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        return new StackServiceSecrets(settings.dataDirectory().resolve("secrets"));
    }

    /** The Connect REST principal that may change connectors. */
    public BasicCredentials connectAdmin() {
        return connect(ConnectRestPrincipals.ADMIN);
    }

    /** The Connect REST principal that may only read. */
    public BasicCredentials connectMonitor() {
        return connect(ConnectRestPrincipals.MONITOR);
    }

    /** The bearer token the planning API requires. */
    public String planningToken() {
        return new SecretFile(
                        secretsDirectory.resolve(PLANNING_FILE), "Bearer token of the embedded stack's planning API")
                .secret(PLANNING_TOKEN);
    }

    private BasicCredentials connect(String principal) {
        SecretFile file = new SecretFile(
                secretsDirectory.resolve(CONNECT_FILE), "Passwords of the embedded stack's Connect REST principals");
        return new BasicCredentials(principal, file.secret(principal));
    }
}
