package io.fleetlake.servers.s3;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
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
        return ServerProcess.runUntilShutdown("S3 server", shutdown -> {
            S3ServerConfig serverConfig = S3ServerConfig.from(config.load());
            S3Server server = shutdown.closes(new S3Server(serverConfig));
            server.start();
            LOG.info(
                    "S3 server serves buckets {} with access key {} in region {} on path-style endpoint {}",
                    serverConfig.buckets(),
                    serverConfig.accessKey(),
                    serverConfig.region(),
                    server.endpoint());
            return StartedServer.on(serverConfig.host() + ":" + server.port());
        });
    }
}
