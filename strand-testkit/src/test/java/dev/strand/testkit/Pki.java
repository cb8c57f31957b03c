package dev.strand.testkit;

import dev.strand.testkit.tls.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** One {@link TestPki} per test JVM (generating it takes seconds on a busy machine), and clients that trust it. */
final class Pki {

    private static TestPki pki;

    private Pki() {
    }

    static synchronized TestPki get() {
        if (pki == null) {
            try {
                pki = TestPki.generate(Files.createTempDirectory("strand-testkit-pki"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return pki;
    }

    /** A server builder serving the PKI's localhost/127.0.0.1 certificate. */
    static TestServer.Builder tlsServer() {
        return TestServer.builder().tls(get().server().cert(), get().server().key());
    }

    /** An SSLContext trusting the PKI's CA; with the PKI's client certificate when {@code withClientCert}. */
    static SSLContext clientContext(boolean withClientCert) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", get().ca().certificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (withClientCert) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(get().client().p12())) {
                    keys.load(in, TestPki.PASSWORD.toCharArray());
                }
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, TestPki.PASSWORD.toCharArray());
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JDK client trusting the PKI, preferring {@code version}. */
    static HttpClient client(HttpClient.Version version) {
        return client(version, clientContext(false));
    }

    static HttpClient client(HttpClient.Version version, SSLContext ssl) {
        return HttpClient.newBuilder().version(version).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    static Path caPem() {
        return get().ca().cert();
    }
}
