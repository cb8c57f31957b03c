package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command line starts a server that announces itself and serves. */
@Timeout(120)
class TestServerMainTest {

    @Test
    void mainPrintsTheAddressAndServes() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                TestServer.class.getName(), "--host", "127.0.0.1", "--port", "0", "--threads", "1")
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            Pattern banner = Pattern.compile(
                    "strand-testkit listening on (http://127\\.0\\.0\\.1:\\d+) \\((epoll|nio)\\)");
            Matcher m = null;
            for (String line; (line = out.readLine()) != null; ) {
                m = banner.matcher(line);
                if (m.matches()) {
                    break;
                }
            }
            assertTrue(m != null && m.matches(), "no banner");
            byte[] body = client.send(HttpRequest.newBuilder(URI.create(m.group(1) + "/small")).build(),
                    BodyHandlers.ofByteArray()).body();
            assertArrayEquals(Payloads.SMALL, body);
        } finally {
            stop(p);
        }
    }

    @Test
    void selfSignedDirServesH2OverTlsAndPrintsTheCa(@TempDir Path dir) throws Exception {
        Process p = start("--self-signed-dir", dir.toString(), "--http2", "--max-concurrent-streams", "7");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            Pattern caLine = Pattern.compile("strand-testkit CA certificate: (.+)");
            Pattern banner = Pattern.compile(
                    "strand-testkit listening on (https://127\\.0\\.0\\.1:\\d+) \\((epoll|nio), TLS jdk, h2\\)");
            Path ca = null;
            Matcher m = null;
            for (String line; (line = out.readLine()) != null; ) {
                Matcher c = caLine.matcher(line);
                if (c.matches()) {
                    ca = Path.of(c.group(1));
                }
                m = banner.matcher(line);
                if (m.matches()) {
                    break;
                }
            }
            assertTrue(m != null && m.matches(), "no banner");
            assertEquals(dir.resolve("ca.pem").toAbsolutePath(), ca);
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(ca)) {
                trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            try (HttpClient client = HttpClient.newBuilder().sslContext(ssl).build()) {
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(m.group(1) + "/small")).build(),
                        BodyHandlers.ofByteArray());
                assertEquals(HttpClient.Version.HTTP_2, r.version());
                assertArrayEquals(Payloads.SMALL, r.body());
            }
        } finally {
            stop(p);
        }
    }

    private static Process start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                TestServer.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }
}
