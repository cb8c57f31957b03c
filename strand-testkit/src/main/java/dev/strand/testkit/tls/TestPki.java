package dev.strand.testkit.tls;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away PKI for TLS tests, generated at test time so nothing checked in ever expires.
 *
 * <p>{@link #generate(Path)} writes into a directory: a CA, a server certificate for
 * {@code localhost}, {@code 127.0.0.1}, {@code ::1} and two test names signed by it, the same kind of certificate
 * expired, not yet valid and issued for {@code wrong.example} only, a self-signed one nobody
 * trusts, and a client CA with a client certificate. Each identity is written as PEM certificate,
 * PKCS#8 key, "traditional" key (PKCS#1 for RSA, SEC1 for EC) and PKCS#12 ({@link #PASSWORD}).
 *
 * <pre>{@code
 * TestPki pki = TestPki.generate(tempDir);
 * SslContext server = SslContextBuilder.forServer(pki.server().cert().toFile(), pki.server().key().toFile()).build();
 * }</pre>
 *
 * <p>From a shell: {@code java -cp CLASSPATH dev.strand.testkit.tls.TestPki DIR} prints the files.
 *
 * @param dir where the files are
 * @param ca the CA that issued every server certificate except {@code selfSigned}
 * @param server valid for localhost, 127.0.0.1, ::1, {@code api.strand.test} and {@code *.shared.strand.test}
 *     (EC P-256)
 * @param expired as {@code server}, but expired a day ago
 * @param notYetValid as {@code server}, but valid only from tomorrow
 * @param wrongHost valid, but its only name is {@code wrong.example}
 * @param selfSigned for localhost and 127.0.0.1, self-signed, in no trust store
 * @param clientCa the CA a server should trust for client certificates
 * @param client a client certificate ({@code CN=strand-client}, RSA 2048) issued by {@code clientCa}
 */
public record TestPki(
        Path dir,
        Identity ca,
        Identity server,
        Identity expired,
        Identity notYetValid,
        Identity wrongHost,
        Identity selfSigned,
        Identity clientCa,
        Identity client) {

    /** Password of every PKCS#12 file. */
    public static final String PASSWORD = "changeit";

    /** Certificates are valid this long from generation (long enough for a CI run, short enough to be inert). */
    static final Duration VALIDITY = Duration.ofDays(30);

    /**
     * Files of one identity.
     *
     * @param cert the certificate (PEM)
     * @param key its private key (PEM, PKCS#8 {@code PRIVATE KEY})
     * @param traditionalKey the same key as {@code RSA PRIVATE KEY} (PKCS#1) or {@code EC PRIVATE KEY} (SEC1)
     * @param p12 key and certificate chain as PKCS#12, password {@link #PASSWORD}
     * @param certificate the certificate, parsed
     * @param privateKey the key, parsed
     */
    public record Identity(Path cert, Path key, Path traditionalKey, Path p12, X509Certificate certificate,
            PrivateKey privateKey) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One PKI per JVM, generated on first use into a temporary directory that is deleted at exit:
     * generating one takes seconds, so test classes share it. Read-only.
     */
    public static TestPki shared() {
        return Shared.PKI;
    }

    private static final class Shared {
        static final TestPki PKI = create();

        private static TestPki create() {
            try {
                Path dir = Files.createTempDirectory("strand-test-pki");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
                return generate(dir);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private static void deleteTree(Path dir) {
            try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // a temporary directory left behind is harmless
            }
        }
    }

    /** Generates everything into {@code dir} (created if missing; existing files are replaced). */
    public static TestPki generate(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
            Instant now = Instant.now();
            Instant from = now.minus(Duration.ofHours(1));
            Instant to = now.plus(VALIDITY);
            List<GeneralName> serverNames = List.of(
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    ip("127.0.0.1"),
                    ip("::1"),
                    // Names for tests that resolve them to loopback: HTTP/2 coalescing, certificate host checks.
                    new GeneralName(GeneralName.dNSName, "api.strand.test"),
                    new GeneralName(GeneralName.dNSName, "*.shared.strand.test"));

            KeyPair caKeys = ec();
            X509Certificate caCert = ca("Strand Test CA", caKeys, from, to);
            Identity ca = write(dir, "ca", caKeys, caCert);

            Identity server = leaf(dir, "server", "localhost", serverNames, true, caKeys, caCert, from, to);
            Identity expired = leaf(dir, "expired", "localhost", serverNames, true, caKeys, caCert,
                    now.minus(Duration.ofDays(30)), now.minus(Duration.ofDays(1)));
            Identity notYetValid = leaf(dir, "not-yet-valid", "localhost", serverNames, true, caKeys, caCert,
                    now.plus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)));
            Identity wrongHost = leaf(dir, "wrong-host", "wrong.example",
                    List.of(new GeneralName(GeneralName.dNSName, "wrong.example")), true, caKeys, caCert, from, to);

            KeyPair selfKeys = ec();
            X500Name selfName = new X500Name("CN=localhost,O=Strand self-signed");
            X509Certificate selfCert = cert(selfName, selfKeys, selfName, selfKeys.getPrivate(), null, from, to, false,
                    List.of(new GeneralName(GeneralName.dNSName, "localhost"), ip("127.0.0.1")), true);
            Identity selfSigned = write(dir, "self-signed", selfKeys, selfCert);

            KeyPair clientCaKeys = ec();
            X509Certificate clientCaCert = ca("Strand Test Client CA", clientCaKeys, from, to);
            Identity clientCa = write(dir, "client-ca", clientCaKeys, clientCaCert);
            KeyPair clientKeys = rsa();
            X509Certificate clientCert = cert(new X500Name("CN=strand-client"), clientKeys,
                    caSubject("Strand Test Client CA"), clientCaKeys.getPrivate(), clientCaCert, from, to, false,
                    List.of(), false);
            Identity client = write(dir, "client", clientKeys, clientCert, clientCaCert);

            return new TestPki(dir, ca, server, expired, notYetValid, wrongHost, selfSigned, clientCa, client);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot generate test PKI: " + e, e);
        }
    }

    /** Writes the files into {@code args[0]} and prints where they are; {@code .ci} scripts use it for nginx. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: TestPki DIR");
            System.exit(2);
        }
        TestPki pki = generate(Path.of(args[0]));
        for (Identity id : List.of(pki.ca, pki.server, pki.expired, pki.notYetValid, pki.wrongHost, pki.selfSigned,
                pki.clientCa, pki.client)) {
            System.out.println(id.cert() + " " + id.key());
        }
    }

    private static Identity leaf(Path dir, String name, String cn, List<GeneralName> sans, boolean serverAuth,
            KeyPair caKeys, X509Certificate caCert, Instant from, Instant to)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        KeyPair keys = ec();
        X509Certificate c = cert(new X500Name("CN=" + cn), keys, caSubject("Strand Test CA"), caKeys.getPrivate(),
                caCert, from, to, false, sans, serverAuth);
        return write(dir, name, keys, c, caCert);
    }

    private static X500Name caSubject(String cn) {
        return new X500Name("CN=" + cn);
    }

    private static X509Certificate ca(String cn, KeyPair keys, Instant from, Instant to)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        return cert(caSubject(cn), keys, caSubject(cn), keys.getPrivate(), null, from, to, true, List.of(), false);
    }

    private static X509Certificate cert(X500Name subject, KeyPair keys, X500Name issuer, PrivateKey issuerKey,
            X509Certificate issuerCert, Instant from, Instant to, boolean isCa, List<GeneralName> sans,
            boolean serverAuth) throws GeneralSecurityException, OperatorCreationException, IOException {
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM).add(BigInteger.ONE),
                Date.from(from), Date.from(to), subject, keys.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
        if (issuerCert != null) {
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuerCert));
        }
        if (isCa) {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                    | (keys.getPublic().getAlgorithm().equals("RSA") ? KeyUsage.keyEncipherment : 0)));
            b.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(serverAuth ? KeyPurposeId.id_kp_serverAuth : KeyPurposeId.id_kp_clientAuth));
        }
        if (!sans.isEmpty()) {
            b.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(sans.toArray(GeneralName[]::new)));
        }
        String alg = issuerKey.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(alg).build(issuerKey)));
    }

    private static GeneralName ip(String literal) throws IOException {
        ASN1Encodable octets = new DEROctetString(InetAddress.getByName(literal).getAddress());
        return new GeneralName(GeneralName.iPAddress, octets);
    }

    private static KeyPair ec() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048, RANDOM);
        return g.generateKeyPair();
    }

    private static Identity write(Path dir, String name, KeyPair keys, X509Certificate cert, X509Certificate... chain)
            throws IOException, GeneralSecurityException {
        Path certFile = dir.resolve(name + ".pem");
        Path keyFile = dir.resolve(name + ".key");
        Path traditionalFile = dir.resolve(name + (keys.getPrivate().getAlgorithm().equals("RSA") ? "-pkcs1.key"
                : "-sec1.key"));
        Path p12File = dir.resolve(name + ".p12");

        Files.writeString(certFile, pem("CERTIFICATE", cert.getEncoded()), StandardCharsets.US_ASCII);
        Files.writeString(keyFile, pem("PRIVATE KEY", keys.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
        Files.writeString(traditionalFile, traditionalPem(keys), StandardCharsets.US_ASCII);

        List<Certificate> fullChain = new ArrayList<>();
        fullChain.add(cert);
        fullChain.addAll(List.of(chain));
        KeyStore p12 = KeyStore.getInstance("PKCS12");
        p12.load(null, null);
        p12.setKeyEntry(name, keys.getPrivate(), PASSWORD.toCharArray(), fullChain.toArray(Certificate[]::new));
        try (OutputStream out = Files.newOutputStream(p12File)) {
            p12.store(out, PASSWORD.toCharArray());
        }
        return new Identity(certFile, keyFile, traditionalFile, p12File, cert, keys.getPrivate());
    }

    /** PKCS#1 for RSA; for EC, SEC1 with the curve and public key included, as {@code openssl ec} writes it. */
    private static String traditionalPem(KeyPair keys) throws IOException {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
        if (keys.getPrivate() instanceof ECPrivateKey ec) {
            DERBitString publicKey = new DERBitString(
                    SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()).getPublicKeyData().getBytes());
            int orderBits = ec.getParams().getOrder().bitLength();
            org.bouncycastle.asn1.sec.ECPrivateKey sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(orderBits,
                    ec.getS(), publicKey, info.getPrivateKeyAlgorithm().getParameters());
            return pem("EC PRIVATE KEY", sec1.getEncoded());
        }
        return pem("RSA PRIVATE KEY", info.parsePrivateKey().toASN1Primitive().getEncoded());
    }

    private static String pem(String label, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
    }
}
