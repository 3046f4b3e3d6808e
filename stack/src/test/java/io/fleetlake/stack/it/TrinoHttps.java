package io.fleetlake.stack.it;

import io.fleetlake.identity.LocalCertificateAuthority;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** An HTTP client that trusts the embedded Trino's certificate: the data folder's Trino CA, and nothing else. */
final class TrinoHttps {
    private TrinoHttps() {}

    static HttpClient client(Path caCertificate) throws IOException, GeneralSecurityException {
        List<X509Certificate> certificates = LocalCertificateAuthority.readCertificates(caCertificate);
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        for (int index = 0; index < certificates.size(); index++) {
            trusted.setCertificateEntry("trino-ca-" + index, certificates.get(index));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return HttpClient.newBuilder()
                .sslContext(context)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }
}
