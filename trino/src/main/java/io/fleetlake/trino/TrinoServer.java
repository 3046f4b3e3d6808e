package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.process.ChildProcess;
import io.fleetlake.common.process.FreePorts;
import io.fleetlake.common.process.ListeningSockets;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Trino server (coordinator that also runs tasks) in its own JVM, started from the unpacked server folder
 * without Trino's launcher: {@code java <jvm.config> -D<node.properties> -Dconfig=etc/config.properties
 * -Dlog.levels-file=etc/log.properties -cp <server>/lib/* io.trino.server.TrinoServer}, working directory the data
 * folder, output appended to {@code <data-dir>/var/log/server.log}.
 *
 * <p>{@link #start()} returns once {@code GET /v1/info} says {@code "starting": false}; {@link #close()} stops the
 * process and anything it started.
 */
public final class TrinoServer implements AutoCloseable {
    private static final String MAIN_CLASS = "io.trino.server.TrinoServer";
    private static final String NAME = "trino";

    private static final Logger LOG = LoggerFactory.getLogger(TrinoServer.class);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    // Trino finishes its shutdown hooks in about 2 s; the margin covers a loaded machine.
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final TrinoConfig config;
    private final JdkLocator jdkLocator;

    private ChildProcess process;
    private InetAddress bindAddress;
    private int port;
    private int httpsPort;
    private boolean closed;

    public TrinoServer(TrinoConfig config) {
        this(
                config,
                JdkLocator.forThisMachine(
                        requireNonNull(config, "config is null").javaHome()));
    }

    TrinoServer(TrinoConfig config, JdkLocator jdkLocator) {
        this.config = requireNonNull(config, "config is null");
        this.jdkLocator = requireNonNull(jdkLocator, "jdkLocator is null");
    }

    /**
     * Writes {@code etc/}, starts the server and waits until it has finished starting.
     *
     * @throws TrinoServerException when no suitable JDK or server folder exists, the process exits, or the server is
     *     not ready within {@code trino.startup-timeout}; the message points to the server log
     */
    public void start() {
        ChildProcess started = launch();
        long startNanos = System.nanoTime();
        try {
            awaitReady(started);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("Trino started in {} ms on {}", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), uri());
    }

    // Holds the lock only while launching, so that close() (for example from a shutdown hook) can stop a server that is
    // still starting.
    private synchronized ChildProcess launch() {
        if (process != null || closed) {
            throw new IllegalStateException("A TrinoServer starts once; create a new one to start again");
        }
        requireServerFolder(config.serverDirectory());
        JdkLocator.Jdk jdk = jdkLocator.locate();
        bindAddress = resolveBindAddress(config.host());
        // A server left running by a launcher that died would hold the port the check below wants free.
        ChildProcess.stopLeftover(NAME, pidFile());
        port = config.port() == 0 ? freePort(bindAddress) : requireFreePort(bindAddress, config.port());
        int configuredHttpsPort = config.security().httpsPort();
        httpsPort = configuredHttpsPort == 0
                ? freePort(bindAddress, port)
                : requireFreePort(bindAddress, configuredHttpsPort, TrinoSecurity.HTTPS_PORT);

        TrinoEtc etc = TrinoEtc.generate(
                config, bindAddress.getHostAddress(), port, httpsPort, keystore(bindAddress), new SecureRandom());
        Path etcDirectory = TrinoEtc.etcDirectory(config);
        etc.writeTo(etcDirectory);
        Path logFile = logFile();
        List<String> command = command(jdk.javaExecutable(), etc, etcDirectory, config.serverDirectory());
        LOG.info(
                "Starting Trino on {}:{} with Java {} ({}); log {}",
                bindAddress.getHostAddress(),
                port,
                jdk.version(),
                jdk.home(),
                logFile);
        LOG.debug("Trino command: {}", command);
        try {
            Files.createDirectories(logFile.getParent());
            process = ChildProcess.start(
                    NAME, command, config.dataDirectory(), Map.of(), logFile, Optional.of(pidFile()));
        } catch (IOException | UncheckedIOException e) {
            throw new TrinoServerException("Cannot start " + jdk.javaExecutable() + " for Trino: " + e.getMessage(), e);
        }
        return process;
    }

    /**
     * The server's certificate chain and key from the data folder's local CA, naming the bind address and {@code
     * localhost}; issued again when it no longer does or expires soon.
     */
    private String keystore(InetAddress address) {
        LocalCertificateAuthority.TlsFiles tls =
                ensureCertificate(config.security().tlsDirectory(), address);
        try {
            return Files.readString(tls.privateKey(), StandardCharsets.US_ASCII)
                    + Files.readString(tls.certificateChain(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new TrinoServerException(
                    "Cannot read Trino's TLS certificate in "
                            + config.security().tlsDirectory() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * The local CA and the server certificate a Trino bound to {@code address} uses, in {@code tlsDirectory}: created
     * when missing, issued again when they no longer name the address and {@code localhost} or expire soon. A client
     * that reads the CA once when it starts (Prometheus) calls this first, so that it need not wait for Trino.
     */
    public static LocalCertificateAuthority.TlsFiles ensureCertificate(Path tlsDirectory, InetAddress address) {
        requireNonNull(tlsDirectory, "tlsDirectory is null");
        Set<String> names = new LinkedHashSet<>(List.of(address.getHostAddress(), "localhost"));
        return LocalCertificateAuthority.ensure(tlsDirectory, names, Clock.systemUTC(), "Trino");
    }

    /** The command that starts Trino; node properties go on the command line as Trino's launcher passes them. */
    static List<String> command(Path javaExecutable, TrinoEtc etc, Path etcDirectory, Path serverDirectory) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable.toString());
        command.addAll(etc.jvmOptions());
        for (Map.Entry<String, String> property : etc.nodeProperties().entrySet()) {
            command.add("-D" + property.getKey() + "=" + property.getValue());
        }
        command.add("-Dconfig=" + etcDirectory.resolve(TrinoEtc.CONFIG_PROPERTIES));
        command.add("-Dlog.levels-file=" + etcDirectory.resolve(TrinoEtc.LOG_PROPERTIES));
        command.add("-cp");
        // The java launcher expands "lib/*" to every jar in the folder.
        command.add(serverDirectory.resolve("lib") + "/*");
        command.add(MAIN_CLASS);
        return command;
    }

    private void awaitReady(ChildProcess started) {
        TrinoHealthCheck healthCheck = new TrinoHealthCheck(uri());
        TrinoActiveNodeCheck activeNodeCheck = new TrinoActiveNodeCheck(connectionFactory(TrinoUser.MONITOR));
        long deadline = System.nanoTime() + config.startupTimeout().toNanos();
        try {
            awaitStage(
                    started,
                    deadline,
                    healthCheck::isReady,
                    healthCheck.infoUri() + " never answered \"starting\": false");
            awaitStage(
                    started, deadline, activeNodeCheck::hasActiveNode, "the coordinator never listed an active node");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TrinoServerException("Interrupted while waiting for Trino to start", e);
        }
    }

    private void awaitStage(ChildProcess started, long deadline, ReadinessStage stage, String whatNeverHappened)
            throws InterruptedException {
        while (!stage.isReached()) {
            if (started.waitFor(POLL_INTERVAL)) {
                throw new TrinoServerException(
                        (isClosed() ? "Trino was stopped" : "Trino exited with status " + started.exitCode())
                                + " while starting; see the server log " + logFile());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TrinoServerException("Trino did not finish starting within " + config.startupTimeout() + " ("
                        + whatNeverHappened + "); see the server log " + logFile() + ", or raise "
                        + TrinoConfig.STARTUP_TIMEOUT + " on a slow machine");
            }
        }
    }

    @FunctionalInterface
    private interface ReadinessStage {
        boolean isReached() throws InterruptedException;
    }

    /** Stops the server (SIGTERM, then SIGKILL after 30 s) and any process it started. Safe to call twice. */
    @Override
    public synchronized void close() {
        closed = true;
        if (process == null || !process.isAlive()) {
            return;
        }
        LOG.info("Stopping Trino (pid {})", process.pid());
        process.stop(STOP_TIMEOUT);
        LOG.info("Trino stopped");
    }

    /**
     * Blocks until the server process exits and returns its exit status.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    public int awaitTermination() throws InterruptedException {
        return runningProcess().awaitExit();
    }

    /**
     * True when the server answers {@code GET /v1/info} with {@code "starting": false} and lists an active node, so
     * that it can run queries.
     */
    public boolean isReady() throws InterruptedException {
        URI serverUri;
        TrinoConnectionFactory monitor;
        synchronized (this) {
            if (process == null || !process.isAlive()) {
                return false;
            }
            serverUri = uri();
            monitor = connectionFactory(TrinoUser.MONITOR);
        }
        return listensOnItsPort()
                && new TrinoHealthCheck(serverUri).isReady()
                && new TrinoActiveNodeCheck(monitor).hasActiveNode();
    }

    // Only this server's own answer counts, not one from another process on the port.
    private boolean listensOnItsPort() {
        ChildProcess current;
        synchronized (this) {
            current = process;
        }
        if (current == null || !ListeningSockets.available()) {
            return current != null;
        }
        try {
            return ListeningSockets.listensOn(current.handle(), port);
        } catch (IOException e) {
            return false;
        }
    }

    /** The address the server is bound to. */
    public synchronized String host() {
        runningProcess();
        return bindAddress.getHostAddress();
    }

    /** The bound HTTPS port clients use (the free port picked when {@code trino.https-port} is 0). */
    public synchronized int httpsPort() {
        runningProcess();
        return httpsPort;
    }

    /** The bound HTTP port (the free port picked when {@code trino.port} is 0): internal requests and /v1/info. */
    public synchronized int port() {
        runningProcess();
        return port;
    }

    public synchronized URI uri() {
        runningProcess();
        return TrinoEtc.httpUri(bindAddress.getHostAddress(), port);
    }

    /** The HTTPS URI clients connect to, such as {@code https://127.0.0.1:8443}. */
    public synchronized URI httpsUri() {
        runningProcess();
        return TrinoEtc.uri("https", bindAddress.getHostAddress(), httpsPort);
    }

    /** The JDBC URL of the server's HTTPS port, for {@code io.trino:trino-jdbc}; it needs a user and password. */
    public String jdbcUrl() {
        return "jdbc:trino://" + httpsUri().getRawAuthority();
    }

    /** Connections as {@code user} with its configured password, trusting the data folder's CA. */
    public TrinoConnectionFactory connectionFactory(TrinoUser user) {
        return TrinoConnectionFactory.of(
                jdbcUrl(),
                user,
                config.security().password(user),
                config.security().caCertificate());
    }

    public synchronized long processId() {
        return runningProcess().pid();
    }

    /** The server's process while it runs, for measurements such as its CPU time; empty before start and after exit. */
    public synchronized Optional<ProcessHandle> processHandle() {
        return process != null && process.isAlive() ? Optional.of(process.handle()) : Optional.empty();
    }

    /** Where the running server is recorded, so that a start after a crash of its launcher can stop it. */
    private Path pidFile() {
        return config.dataDirectory().resolve("trino.pid");
    }

    /** The file that receives Trino's standard output and error. */
    public Path logFile() {
        return TrinoEtc.logDirectory(config).resolve("server.log");
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private synchronized ChildProcess runningProcess() {
        if (process == null) {
            throw new IllegalStateException("Trino server not started; call start() first");
        }
        return process;
    }

    private static void requireServerFolder(Path serverDirectory) {
        Path libraries = serverDirectory.resolve("lib");
        Path icebergPlugin = serverDirectory.resolve("plugin").resolve("iceberg");
        if (!Files.isDirectory(libraries) || !Files.isDirectory(icebergPlugin)) {
            throw new TrinoServerException(TrinoConfig.SERVER_DIRECTORY + " = " + serverDirectory
                    + " is not an assembled Trino server (it needs lib/ and plugin/iceberg/). Build it with"
                    + " `mvn -pl trino package` and point " + TrinoConfig.SERVER_DIRECTORY
                    + " at trino/target/trino-server.");
        }
    }

    private static InetAddress resolveBindAddress(String host) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new TrinoServerException(
                    TrinoConfig.HOST + " = " + host + " does not resolve; set an address such as 127.0.0.1", e);
        }
        if (address.isAnyLocalAddress()) {
            throw new TrinoServerException(TrinoConfig.HOST + " = " + host
                    + " would listen on every interface; set one address such as 127.0.0.1");
        }
        return address;
    }

    private static int requireFreePort(InetAddress address, int port) {
        return requireFreePort(address, port, TrinoConfig.PORT);
    }

    // Trino would notice a taken port only after loading its plugins, half a minute later.
    private static int requireFreePort(InetAddress address, int port, String key) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port), 1);
            return port;
        } catch (IOException e) {
            throw new TrinoServerException(
                    address.getHostAddress() + ":" + port + " is already in use (" + e.getMessage()
                            + "); stop what listens there or set " + key
                            + " to another port, or 0 for a free one",
                    e);
        }
    }

    private static int freePort(InetAddress address) {
        return FreePorts.pick(address);
    }

    // Both ports are picked before Trino binds either: the second must not be the first.
    private static int freePort(InetAddress address, int taken) {
        return FreePorts.pick(address, Set.of(taken));
    }
}
