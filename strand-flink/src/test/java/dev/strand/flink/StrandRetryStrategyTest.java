package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The retry decision, the back-off and Retry-After parsing, as pure functions. */
class StrandRetryStrategyTest {

    private static HttpRecordException failure(String method, ErrorKind kind, int status) {
        return failure(Request.builder(method, "http://h/").build(), kind, status);
    }

    private static HttpRecordException failure(Request request, ErrorKind kind, int status) {
        return new HttpRecordException("r", request, kind, status, null, "x", null);
    }

    @Test
    void aWriteCarryingAnIdempotencyKeyIsRetriedAsAnIdempotentMethodIs() {
        StrandRetryStrategy<String> s = StrandRetryStrategy.<String>builder().build();
        Request keyed = Request.builder("POST", "http://h/orders").header("Idempotency-Key", "order-17").build();
        assertTrue(s.shouldRetry(failure(keyed, ErrorKind.STATUS, 503)));
        assertTrue(s.shouldRetry(failure(keyed, ErrorKind.CONNECT, 0)));
        assertFalse(s.shouldRetry(failure("PATCH", ErrorKind.STATUS, 503)));
    }

    @Test
    void aFailureWithoutARequestIsNotIdempotentAndNamesNoRequest() {
        HttpRecordException e = new HttpRecordException("r", null, ErrorKind.TIMEOUT, 0, null, "too slow", null);
        assertFalse(e.isIdempotent());
        assertEquals(null, e.method());
        assertEquals("record \"r\": too slow", e.getMessage());
    }

    @Test
    void retriesConnectFailures429And503ForIdempotentMethodsOnly() {
        StrandRetryStrategy<String> s = StrandRetryStrategy.<String>builder().build();
        assertTrue(s.shouldRetry(failure("GET", ErrorKind.CONNECT, 0)));
        assertTrue(s.shouldRetry(failure("GET", ErrorKind.STATUS, 429)));
        assertTrue(s.shouldRetry(failure("PUT", ErrorKind.STATUS, 503)));
        assertFalse(s.shouldRetry(failure("GET", ErrorKind.STATUS, 500)));
        assertFalse(s.shouldRetry(failure("GET", ErrorKind.STATUS, 404)));
        assertFalse(s.shouldRetry(failure("GET", ErrorKind.TIMEOUT, 0)));
        assertFalse(s.shouldRetry(failure("GET", ErrorKind.MAPPER, 0)));
        assertFalse(s.shouldRetry(failure("POST", ErrorKind.STATUS, 503)));
        assertFalse(s.shouldRetry(failure("POST", ErrorKind.CONNECT, 0)));
        assertFalse(s.shouldRetry(new RuntimeException("not ours")));
        assertTrue(s.getRetryPredicate().exceptionPredicate().orElseThrow()
                .test(failure("GET", ErrorKind.STATUS, 503)));
        assertTrue(s.getRetryPredicate().resultPredicate().isEmpty());
    }

    @Test
    void optionsWidenTheDecision() {
        StrandRetryStrategy<String> s = StrandRetryStrategy.<String>builder()
                .retryNonIdempotent(true).retryStatuses(502).build();
        assertTrue(s.shouldRetry(failure("POST", ErrorKind.STATUS, 503)));
        assertTrue(s.shouldRetry(failure("GET", ErrorKind.STATUS, 502)));
    }

    @Test
    void backoffDoublesUpToTheCapAndAttemptsAreBounded() {
        StrandRetryStrategy<String> s = StrandRetryStrategy.<String>builder()
                .maxRetries(2).initialBackoffMillis(100).maxBackoffMillis(250).build();
        assertEquals(100, s.getBackoffTimeMillis(1));
        assertEquals(200, s.getBackoffTimeMillis(2));
        assertEquals(250, s.getBackoffTimeMillis(3));
        assertEquals(250, s.getBackoffTimeMillis(100));
        assertTrue(s.canRetry(1));
        assertTrue(s.canRetry(2));
        assertFalse(s.canRetry(3));
    }

    @Test
    void survivesJavaSerializationAsFlinkShipsIt() throws Exception {
        StrandRetryStrategy<String> s = StrandRetryStrategy.<String>builder().retryStatuses(502).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        @SuppressWarnings("unchecked")
        StrandRetryStrategy<String> copy = (StrandRetryStrategy<String>) new ObjectInputStream(
                new ByteArrayInputStream(bytes.toByteArray())).readObject();
        assertTrue(copy.shouldRetry(failure("GET", ErrorKind.STATUS, 502)));
    }

    @Test
    void retryAfterIsSecondsOrAnHttpDate() {
        ZonedDateTime now = ZonedDateTime.of(2026, 1, 1, 12, 0, 0, 0, ZoneOffset.UTC);
        assertEquals(Duration.ofSeconds(7), Exchanges.retryAfter(head("7"), now));
        assertEquals(Duration.ofSeconds(30), Exchanges.retryAfter(head("Thu, 01 Jan 2026 12:00:30 GMT"), now));
        assertEquals(Duration.ZERO, Exchanges.retryAfter(head("Thu, 01 Jan 2026 11:00:00 GMT"), now));
        assertNull(Exchanges.retryAfter(head("soon"), now));
        assertNull(Exchanges.retryAfter(Response.builder(503).build(), now));
    }

    @Test
    void aLongRecordIsCutInTheMessage() {
        HttpRecordException e = new HttpRecordException("x".repeat(500), null, ErrorKind.MAPPER, 0, null,
                "boom", null);
        assertEquals(HttpRecordException.MAX_RECORD_CHARS + 3, e.record().length());
        assertTrue(e.getMessage().endsWith("...\": boom"), e.getMessage());
    }

    private static Response head(String retryAfter) {
        return Response.builder(503).header("Retry-After", retryAfter).request(Request.get("http://h/")).build();
    }
}
