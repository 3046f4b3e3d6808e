package io.fleetlake.stack.cluster;

import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** What a stranger sends to the pipeline's Flink REST API, in either pipeline mode. */
public final class FlinkRestStrangers {
    private FlinkRestStrangers() {}

    /** A read, a cancel of {@code jobId} and a jar upload. */
    public static List<HttpRequest> requests(String restUri, String jobId, Duration timeout) {
        return List.of(
                HttpRequest.newBuilder(URI.create(restUri + "/overview"))
                        .timeout(timeout)
                        .GET()
                        .build(),
                HttpRequest.newBuilder(URI.create(restUri + "/jobs/" + jobId + "?mode=cancel"))
                        .timeout(timeout)
                        .method("PATCH", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpRequest.newBuilder(URI.create(restUri + "/jars/upload"))
                        .timeout(timeout)
                        .header("Content-Type", "multipart/form-data; boundary=x")
                        .POST(HttpRequest.BodyPublishers.ofString("--x--\r\n"))
                        .build());
    }

    /** The same, cancelling a job that does not exist. */
    public static List<HttpRequest> requests(String restUri, Duration timeout) {
        return requests(restUri, "00000000000000000000000000000000", timeout);
    }

    /** Trusts the data folder's CA (the server is genuine) but has no key to present. */
    public static SSLContext trustingOnly(StackSettings settings) throws Exception {
        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(identity.trustStore())) {
            trust.load(in, identity.storePassword().toCharArray());
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
