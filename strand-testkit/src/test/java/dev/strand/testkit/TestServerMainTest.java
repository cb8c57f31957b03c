package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command line starts a server that announces itself and serves. */
@Timeout(60)
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
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
