package io.fleetlake.servers.s3;

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

/** Runs the S3-compatible server as its own process until the process is told to stop. */
@Command(
        name = "s3-server",
        mixinStandardHelpOptions = true,
        description = "Runs an S3-compatible server (S3Proxy, file system storage) with the s3.* configuration.")
public final class S3ServerMain implements Callable<Integer> {
    static {
        // The S3Proxy jar bundles Logback and its SLF4J provider. Name the Log4j provider so that SLF4J does not
        // pick one by class path order. This must run before the first logger is created.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.apache.logging.slf4j.SLF4JServiceProvider");
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(S3ServerMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Jetty's threads are not daemons: exit explicitly, also after a failed start.
        System.exit(new CommandLine(new S3ServerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        long startNanos = System.nanoTime();
        S3ServerConfig serverConfig;
        S3Server server;
        try {
            serverConfig = S3ServerConfig.from(config.load());
            server = new S3Server(serverConfig);
            server.start();
        } catch (ConfigException e) {
            // The message names the key, the value and where it came from; a stack trace would only hide it.
            LOG.error("S3 server not started: {}", e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            LOG.error("S3 server failed to start: {}", e.getMessage(), e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                                LOG.info("S3 server stopped");
                            } catch (RuntimeException e) {
                                LOG.error("S3 server did not stop cleanly: {}", e.getMessage(), e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "s3-server-shutdown"));
        LOG.info(
                "S3 server started in {} ms: buckets {}, access key {}, region {}, path-style endpoint {}",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                serverConfig.buckets(),
                serverConfig.accessKey(),
                serverConfig.region(),
                server.endpoint());
        LOG.info("S3 server ready on {}:{}", serverConfig.host(), server.port());
        stopped.await();
        return 0;
    }
}
