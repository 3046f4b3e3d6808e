package io.fleetlake.identity;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority of one data folder for a TLS listener (MQTT, Trino): on first use it creates a CA key and
 * certificate and a server certificate signed by it (EC P-256), as PEM files in one folder. Clients trust {@value
 * #CA_CERTIFICATE}; the keys are owner-only. The server certificate is issued again when it no longer names every
 * host asked for or expires within 30 days; the CA stays, so clients keep trusting the same file.
 *
 * <p>{@link #ensureForMutualTls} does the same in a folder of its own for an endpoint whose clients present a
 * certificate too (the Flink REST API): its certificate may authenticate a server and a client, and the endpoint
 * trusts exactly the certificates its CA issued.
 *
 * <p>A user with a certificate of their own (from their CA, or a public one) configures its PEM chain and key instead
 * and this class is not used; {@link #keyStore} reads either into the PKCS#12 key store HiveMQ wants.
 */
public final class LocalCertificateAuthority {
    public static final String CA_CERTIFICATE = "ca.pem";
    public static final String CA_KEY = "ca-key.pem";
    public static final String SERVER_CERTIFICATE = "server.pem";
    public static final String SERVER_KEY = "server-key.pem";

    private static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final Duration SERVER_VALIDITY = Duration.ofDays(825);
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);
    private static final Pattern IP_ADDRESS = Pattern.compile("[0-9.]+|.*:.*");
    private static final String SIGNATURE = "SHA256withECDSA";

    private LocalCertificateAuthority() {}

    /**
     * The server certificate and key in {@code folder}, created (with the CA) when missing, outdated or not naming
     * every host of {@code hostnames}.
     *
     * @param hostnames DNS names and IP addresses clients connect to, for the certificate's subject alternative names
     * @return the server certificate chain (server, then CA) and key
     */
    public static TlsFiles ensure(Path folder, Collection<String> hostnames, Clock clock) {
        return ensure(folder, hostnames, clock, "MQTT");
    }

    /**
     * As {@link #ensure(Path, Collection, Clock)}, for the server named {@code service} (in the CA's name and the
     * messages), such as {@code Trino}: each service has a folder, and so a CA, of its own.
     */
    public static TlsFiles ensure(Path folder, Collection<String> hostnames, Clock clock, String service) {
        requireNonNull(service, "service is null");
        return ensure(
                folder,
                "Fleet lakehouse local " + service + " CA",
                service + " TLS",
                hostnames,
                clock,
                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth});
    }

    /**
     * Like {@link #ensure}, with a certificate for both ends of a mutual TLS connection (extended key usages
     * serverAuth and clientAuth): the endpoint presents it, and its clients present it too.
     *
     * @param surface what the certificate is for, in the CA's name and in error messages, e.g. {@code "Flink REST"}
     */
    public static TlsFiles ensureForMutualTls(Path folder, String surface, Collection<String> hostnames, Clock clock) {
        requireNonNull(surface, "surface is null");
        return ensure(
                folder,
                "Fleet lakehouse local " + surface + " CA",
                surface + " TLS",
                hostnames,
                clock,
                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth});
    }

    private static TlsFiles ensure(
            Path folder,
            String authorityName,
            String what,
            Collection<String> hostnames,
            Clock clock,
            KeyPurposeId[] purposes) {
        requireNonNull(folder, "folder is null");
        requireNonNull(clock, "clock is null");
        Set<String> names = new LinkedHashSet<>(requireNonNull(hostnames, "hostnames is null"));
        if (names.isEmpty()) {
            throw new IllegalArgumentException("A server certificate needs at least one host name or address");
        }
        try {
            OwnerOnlyFiles.createFolder(folder);
            SecureRandom random = new SecureRandom();
            Path caCertificate = folder.resolve(CA_CERTIFICATE);
            Path caKey = folder.resolve(CA_KEY);
            if (!Files.exists(caCertificate) || !Files.exists(caKey)) {
                KeyPair ca = newKeyPair(random);
                X500Name subject = new X500Name(
                        "CN=" + authorityName + " " + Instant.now(clock).getEpochSecond());
                X509Certificate certificate = sign(
                        subject, ca.getPublic(), subject, ca, clock, CA_VALIDITY, random, true, List.of(), purposes);
                writePem(caKey, List.of(ca.getPrivate()), true);
                writePem(caCertificate, List.of(certificate), false);
            }
            Path serverCertificate = folder.resolve(SERVER_CERTIFICATE);
            Path serverKey = folder.resolve(SERVER_KEY);
            if (!Files.exists(serverCertificate)
                    || !Files.exists(serverKey)
                    || needsRenewal(readCertificates(serverCertificate).get(0), names, clock)) {
                X509Certificate caCert = readCertificates(caCertificate).get(0);
                KeyPair caPair = new KeyPair(caCert.getPublicKey(), readPrivateKey(caKey));
                KeyPair server = newKeyPair(random);
                X509Certificate certificate = sign(
                        new X500Name("CN=" + names.iterator().next()),
                        server.getPublic(),
                        new X500Name(caCert.getSubjectX500Principal().getName()),
                        caPair,
                        clock,
                        SERVER_VALIDITY,
                        random,
                        false,
                        List.copyOf(names),
                        purposes);
                writePem(serverKey, List.of(server.getPrivate()), true);
                writePem(serverCertificate, List.of(certificate, caCert), false);
            }
            return new TlsFiles(serverCertificate, serverKey);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create the " + what + " certificate in " + folder + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot create the " + what + " certificate in " + folder + ": " + e, e);
        }
    }

    /**
     * A PKCS#12 key store holding the key and its certificate chain under the alias {@code mqtt}, protected by {@code
     * password}.
     */
    public static KeyStore keyStore(TlsFiles files, char[] password) {
        requireNonNull(files, "files is null");
        requireNonNull(password, "password is null");
        try {
            List<X509Certificate> chain = readCertificates(files.certificateChain());
            if (chain.isEmpty()) {
                throw new IllegalArgumentException("No certificate in " + files.certificateChain());
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("mqtt", readPrivateKey(files.privateKey()), password, chain.toArray(new Certificate[0]));
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the MQTT TLS certificate or key: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot build a key store from the MQTT TLS certificate and key: " + e, e);
        }
    }

    /** Every certificate of a PEM file, in file order. */
    public static List<X509Certificate> readCertificates(Path pem) throws IOException {
        List<X509Certificate> certificates = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(pem, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (java.security.cert.CertificateException e) {
            throw new IOException("Invalid certificate in " + pem + ": " + e.getMessage(), e);
        }
        return certificates;
    }

    /** The first private key of a PEM file: PKCS#8 ({@code PRIVATE KEY}) or OpenSSL's RSA/EC key pair format. */
    static PrivateKey readPrivateKey(Path pem) throws IOException {
        try (Reader reader = Files.newBufferedReader(pem, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        }
        throw new IOException("No unencrypted private key in " + pem + " (PEM, PKCS#8 or OpenSSL format)");
    }

    private static boolean needsRenewal(X509Certificate certificate, Set<String> names, Clock clock)
            throws GeneralSecurityException {
        if (certificate.getNotAfter().toInstant().isBefore(Instant.now(clock).plus(RENEW_BEFORE))) {
            return true;
        }
        Set<String> present = new LinkedHashSet<>();
        Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
        if (alternatives != null) {
            for (List<?> alternative : alternatives) {
                present.add(String.valueOf(alternative.get(1)));
            }
        }
        for (String name : names) {
            if (!present.contains(IP_ADDRESS.matcher(name).matches() ? normalizedAddress(name) : name)) {
                return true;
            }
        }
        return false;
    }

    private static String normalizedAddress(String address) {
        try {
            return InetAddress.getByName(address).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return address;
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), random);
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(
            X500Name subject,
            java.security.PublicKey subjectKey,
            X500Name issuer,
            KeyPair issuerKeys,
            Clock clock,
            Duration validity,
            SecureRandom random,
            boolean authority,
            List<String> hostnames,
            KeyPurposeId[] purposes)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        Instant now = Instant.now(clock);
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                issuer,
                new BigInteger(127, random).add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(validity)),
                subject,
                subjectKey);
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(subjectKey));
        builder.addExtension(
                Extension.authorityKeyIdentifier,
                false,
                extensions.createAuthorityKeyIdentifier(issuerKeys.getPublic()));
        if (authority) {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes));
            List<GeneralName> alternatives = new ArrayList<>();
            for (String hostname : hostnames) {
                alternatives.add(
                        IP_ADDRESS.matcher(hostname).matches()
                                ? new GeneralName(GeneralName.iPAddress, hostname)
                                : new GeneralName(GeneralName.dNSName, hostname));
            }
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(alternatives.toArray(new GeneralName[0])));
        }
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(issuerKeys.getPrivate())));
    }

    private static void writePem(Path file, List<?> objects, boolean secret) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            for (Object object : objects) {
                // PKCS#8 for keys: OpenSSL (Mosquitto) and BouncyCastle read it, and EC keys keep their curve.
                writer.writeObject(
                        object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null).generate() : object);
            }
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        Files.createFile(
                temporary,
                PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--")));
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.US_ASCII)) {
            writer.write(text.toString());
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * A TLS listener's certificate and key.
     *
     * @param certificateChain PEM: the server certificate first, then its issuers
     * @param privateKey PEM, unencrypted: the server certificate's key
     */
    public record TlsFiles(Path certificateChain, Path privateKey) {
        public TlsFiles {
            requireNonNull(certificateChain, "certificateChain is null");
            requireNonNull(privateKey, "privateKey is null");
        }
    }
}
