package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.RequestEntryWrapper;
import org.junit.jupiter.api.Test;

/** Keys: derived deterministically from the entry, or extracted; sent as an sf-string; kept in checkpoints. */
class IdempotencyKeysTest {

    private static final IdempotencyKeys<String> DERIVED = new IdempotencyKeys<>("Idempotency-Key", true, null);

    @Test
    void theDerivedKeyIsAFunctionOfMethodUrlTypeAndBodyOnly() {
        HttpSinkEntry a = HttpSinkEntry.postJson("/ingest", "{\"id\":1}");
        String key = IdempotencyKeys.contentKey(a);
        assertEquals(key, IdempotencyKeys.contentKey(HttpSinkEntry.postJson("/ingest", "{\"id\":1}")));
        assertEquals(key, IdempotencyKeys.contentKey(a.nextAttempt()), "a retry is the same write");
        assertNotEquals(key, IdempotencyKeys.contentKey(HttpSinkEntry.postJson("/ingest", "{\"id\":2}")));
        assertNotEquals(key, IdempotencyKeys.contentKey(HttpSinkEntry.postJson("/other", "{\"id\":1}")));
        assertNotEquals(key, IdempotencyKeys.contentKey(HttpSinkEntry.of("PUT", "/ingest", "application/json",
                "{\"id\":1}".getBytes(StandardCharsets.UTF_8))));
        assertNotEquals(key, IdempotencyKeys.contentKey(HttpSinkEntry.of("POST", "/ingest", null,
                "{\"id\":1}".getBytes(StandardCharsets.UTF_8))));
        // Length prefixes: moving a character from the URL into the body is another write.
        assertNotEquals(IdempotencyKeys.contentKey(HttpSinkEntry.of("POST", "/ab", null, "c".getBytes())),
                IdempotencyKeys.contentKey(HttpSinkEntry.of("POST", "/a", null, "bc".getBytes())));
        assertEquals(key, DERIVED.assign("ignored", a).idempotencyKey());
    }

    @Test
    void theDerivedKeyIsPinned() {
        // The key must not change between JVMs or releases, or a restore after an upgrade would resend everything.
        // First 16 bytes of SHA-256 over each field with a 4-byte big-endian length before it (computed apart).
        assertEquals("c0cea681caa613eab1861f08d8267da9",
                IdempotencyKeys.contentKey(HttpSinkEntry.postJson("/in", "{}")));
    }

    @Test
    void anExtractedKeyIsUsedAsGivenAndCheckedForTheHeader() {
        IdempotencyKeys<String> byRecord = new IdempotencyKeys<>("Idempotency-Key", true, r -> "order-" + r);
        HttpSinkEntry e = HttpSinkEntry.postJson("/pay", "{}");
        assertEquals("order-7", byRecord.assign("7", e).idempotencyKey());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> new IdempotencyKeys<String>("K", true, r -> "has space").assign("x", e));
        assertTrue(bad.getMessage().contains("U+0020 at index 3"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKeys<String>("K", true, r -> null).assign("x", e));
        assertThrows(IllegalArgumentException.class,
                () -> new IdempotencyKeys<String>("K", true, r -> "k".repeat(256)).assign("x", e));
        assertNull(IdempotencyKeys.invalid("k".repeat(255)));
    }

    @Test
    void theHeaderValueIsAnSfStringOrBare() {
        assertEquals("\"abc\"", DERIVED.headerValue("abc"));
        assertEquals("\"a\\\"b\\\\c\"", DERIVED.headerValue("a\"b\\c"));
        assertEquals("a\"b", new IdempotencyKeys<String>("X-Request-Id", false, null).headerValue("a\"b"));
    }

    @Test
    void aCheckpointKeepsEachEntrysKeyAndVersion1StateStillReads() throws Exception {
        HttpSinkEntry keyed = DERIVED.assign("r", HttpSinkEntry.postJson("/ingest", "{\"id\":1}")).nextAttempt();
        HttpSinkEntry plain = HttpSinkEntry.postJson("/ingest", "{\"id\":2}");
        HttpSinkEntrySerializer serializer = new HttpSinkEntrySerializer();
        byte[] bytes = serializer.serialize(new BufferedRequestState<>(List.of(
                new RequestEntryWrapper<>(keyed, keyed.sizeInBytes()),
                new RequestEntryWrapper<>(plain, plain.sizeInBytes()))));
        List<HttpSinkEntry> back = serializer.deserialize(2, bytes).getBufferedRequestEntries().stream()
                .map(RequestEntryWrapper::getRequestEntry).toList();
        assertEquals(keyed.idempotencyKey(), back.get(0).idempotencyKey());
        assertEquals(1, back.get(0).attempts());
        assertNull(back.get(1).idempotencyKey());
        assertEquals("{\"id\":2}", new String(back.get(1).body(), StandardCharsets.UTF_8));

        // Version 1 ended each entry after its attempts.
        var writerOfV1 = new org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer<HttpSinkEntry>() {
            @Override
            protected void serializeRequestToStream(HttpSinkEntry e, java.io.DataOutputStream out)
                    throws java.io.IOException {
                out.writeUTF(e.method());
                out.writeUTF(e.url());
                out.writeBoolean(false);
                out.writeInt(e.body().length);
                out.write(e.body());
                out.writeInt(e.attempts());
            }

            @Override
            protected HttpSinkEntry deserializeRequestFromStream(long size, java.io.DataInputStream in) {
                throw new UnsupportedOperationException();
            }

            @Override
            public int getVersion() {
                return 1;
            }
        };
        byte[] old = writerOfV1.serialize(new BufferedRequestState<>(List.of(
                new RequestEntryWrapper<>(plain, plain.sizeInBytes()), new RequestEntryWrapper<>(plain, 1))));
        List<HttpSinkEntry> restored = serializer.deserialize(1, old).getBufferedRequestEntries().stream()
                .map(RequestEntryWrapper::getRequestEntry).toList();
        assertEquals(2, restored.size());
        assertNull(restored.get(1).idempotencyKey());
        assertThrows(java.io.IOException.class, () -> serializer.deserialize(3, bytes));
    }
}
