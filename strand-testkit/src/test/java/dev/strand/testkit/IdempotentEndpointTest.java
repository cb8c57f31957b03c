package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /idempotent}: a write takes effect once per key; replays, conflicts and missing keys are counted. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(30)
class IdempotentEndpointTest {

    private static HttpResponse<String> post(TestServer s, HttpClient c, String path, String header, String key,
            String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url(path))).POST(BodyPublishers.ofString(body));
        if (key != null) {
            b.header(header, key);
        }
        return c.send(b.build(), BodyHandlers.ofString());
    }

    @Test
    void aKeyTakesEffectOnceAndItsReplaysAreAnsweredAndCounted() throws Exception {
        try (TestServer s = TestServer.start(); HttpClient c = HttpClient.newHttpClient()) {
            HttpResponse<String> first = post(s, c, "/idempotent", "Idempotency-Key", "\"k-1\"", "one");
            assertEquals(201, first.statusCode());
            assertEquals("{\"key\": \"k-1\", \"replayed\": false}", first.body());
            assertTrue(first.headers().firstValue("idempotent-replayed").isEmpty());

            // The same key bare (as pre-draft APIs send it) is the same key.
            HttpResponse<String> again = post(s, c, "/idempotent", "Idempotency-Key", "k-1", "one");
            assertEquals(201, again.statusCode());
            assertEquals("{\"key\": \"k-1\", \"replayed\": true}", again.body());
            assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(null));

            assertEquals(422, post(s, c, "/idempotent", "Idempotency-Key", "\"k-1\"", "two").statusCode());
            assertEquals(400, post(s, c, "/idempotent", "Idempotency-Key", null, "three").statusCode());
            assertEquals(201, post(s, c, "/idempotent?header=X-Request-Id", "X-Request-Id", "k-2", "four")
                    .statusCode());
            // An escaped quote inside the sf-string belongs to the key.
            assertEquals("{\"key\": \"a\\\"b\", \"replayed\": false}",
                    post(s, c, "/idempotent", "Idempotency-Key", "\"a\\\"b\"", "five").body());

            IdempotencyLedger l = s.idempotency();
            assertEquals(6, l.requests());
            assertEquals(3, l.effectiveWrites());
            assertEquals(1, l.replays());
            assertEquals(1, l.conflicts());
            assertEquals(1, l.missingKeys());
            assertEquals(List.of("five", "four", "one"), l.effectiveBodies().stream().sorted().toList());
            String stats = c.send(HttpRequest.newBuilder(URI.create(s.url("/idempotent/stats"))).build(),
                    BodyHandlers.ofString()).body();
            assertEquals("{\"requests\": 6, \"effectiveWrites\": 3, \"replays\": 1, \"conflicts\": 1,"
                    + " \"missingKeys\": 1, \"inProgress\": 0}", stats);
            l.reset();
            assertEquals(0, l.effectiveWrites());
            assertEquals(0, l.requests());
        }
    }

    @Test
    void aDelayedAnswerCountsAsInProgressAfterTheWriteTookEffect() throws Exception {
        try (TestServer s = TestServer.start(); HttpClient c = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            var pending = c.sendAsync(HttpRequest.newBuilder(URI.create(s.url("/idempotent?delay=500")))
                    .header("Idempotency-Key", "slow").POST(BodyPublishers.ofString("x")).build(),
                    BodyHandlers.ofString());
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (s.idempotency().effectiveWrites() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(1, s.idempotency().effectiveWrites(), "took effect before the answer");
            assertEquals(1, s.idempotency().inProgress());
            assertEquals(201, pending.get().statusCode());
            assertEquals(0, s.idempotency().inProgress());
        }
    }

    @Test
    void keysAreParsedAsSfStringsOrBare() {
        assertEquals("abc", IdempotencyLedger.parseKey("\"abc\""));
        assertEquals("abc", IdempotencyLedger.parseKey(" abc "));
        assertEquals("a\\b", IdempotencyLedger.parseKey("\"a\\\\b\""));
        assertNull(IdempotencyLedger.parseKey(null));
        assertNull(IdempotencyLedger.parseKey("\"\""));
    }
}
