package io.fleetlake.stack.cluster;

import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** What a stranger sends to the pipeline's Flink endpoints, in either pipeline mode, and how the stack connects. */
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
        return context(settings, false);
    }

    /** Trusts the data folder's CA and presents its certificate, as the cluster's own processes do. */
    public static SSLContext presentingTheCertificate(StackSettings settings) throws Exception {
        return context(settings, true);
    }

    private static SSLContext context(StackSettings settings, boolean presentTheCertificate) throws Exception {
        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
        char[] password = identity.storePassword().toCharArray();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(identity.trustStore(), password));
        KeyManagerFactory keys = null;
        if (presentTheCertificate) {
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(identity.keyStore(), password), password);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(Path file, char[] password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        return store;
    }
}
