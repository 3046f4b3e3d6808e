package io.fleetlake.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.identity.LocalCertificateAuthority.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCertificateAuthorityTest {
    @TempDir
    Path folder;

    @Test
    void issuesAServerCertificateTheCaVouchesFor() throws Exception {
        TlsFiles files = LocalCertificateAuthority.ensure(folder, List.of("127.0.0.1", "localhost"), Clock.systemUTC());

        List<X509Certificate> chain = LocalCertificateAuthority.readCertificates(files.certificateChain());
        X509Certificate ca = LocalCertificateAuthority.readCertificates(folder.resolve("ca.pem"))
                .get(0);
        assertThat(chain).hasSize(2);
        assertThat(chain.get(1)).isEqualTo(ca);
        chain.get(0).verify(ca.getPublicKey());
        assertThat(chain.get(0).getSubjectAlternativeNames())
                .extracting(name -> String.valueOf(name.get(1)))
                .containsExactly("127.0.0.1", "localhost");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        ((X509TrustManager) factory.getTrustManagers()[0])
                .checkServerTrusted(chain.toArray(new X509Certificate[0]), "ECDHE_ECDSA");
        for (String secret : List.of("ca-key.pem", "server-key.pem")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve(secret))))
                    .isEqualTo("rw-------");
        }
        KeyStore store = LocalCertificateAuthority.keyStore(files, "pw".toCharArray());
        assertThat(store.getCertificateChain("mqtt")).hasSize(2);
        assertThat(store.getKey("mqtt", "pw".toCharArray())).isNotNull();
    }

    @Test
    void keepsTheCaAndRenewsTheServerCertificateOnlyWhenNeeded() throws Exception {
        LocalCertificateAuthority.ensure(folder, List.of("127.0.0.1"), Clock.systemUTC());
        String ca = Files.readString(folder.resolve("ca.pem"));
        String server = Files.readString(folder.resolve("server.pem"));

        LocalCertificateAuthority.ensure(folder, List.of("127.0.0.1"), Clock.systemUTC());
        assertThat(Files.readString(folder.resolve("server.pem")))
                .as("still valid")
                .isEqualTo(server);

        LocalCertificateAuthority.ensure(folder, List.of("127.0.0.1", "broker.example"), Clock.systemUTC());
        assertThat(Files.readString(folder.resolve("server.pem")))
                .as("a new host")
                .isNotEqualTo(server);
        String renamed = Files.readString(folder.resolve("server.pem"));

        Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(800)), ZoneOffset.UTC);
        LocalCertificateAuthority.ensure(folder, List.of("127.0.0.1", "broker.example"), later);
        assertThat(Files.readString(folder.resolve("server.pem")))
                .as("expiring")
                .isNotEqualTo(renamed);
        assertThat(Files.readString(folder.resolve("ca.pem")))
                .as("the CA clients trust stays")
                .isEqualTo(ca);
    }

    @Test
    void aMutualTlsCertificateAuthenticatesServersAndClients(@TempDir Path folder) throws Exception {
        TlsFiles files = LocalCertificateAuthority.ensureForMutualTls(
                folder, "Flink REST", List.of("127.0.0.1", "localhost"), Clock.systemUTC());

        X509Certificate certificate = LocalCertificateAuthority.readCertificates(files.certificateChain())
                .get(0);
        assertThat(certificate.getExtendedKeyUsage())
                .containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        X509Certificate ca = LocalCertificateAuthority.readCertificates(folder.resolve("ca.pem"))
                .get(0);
        assertThat(ca.getSubjectX500Principal().getName()).contains("Flink REST CA");
        certificate.verify(ca.getPublicKey());
        // The MQTT listener's certificate stays a server's only.
        TlsFiles mqtt =
                LocalCertificateAuthority.ensure(folder.resolve("mqtt"), List.of("127.0.0.1"), Clock.systemUTC());
        assertThat(LocalCertificateAuthority.readCertificates(mqtt.certificateChain())
                        .get(0)
                        .getExtendedKeyUsage())
                .containsExactly("1.3.6.1.5.5.7.3.1");
    }
}
