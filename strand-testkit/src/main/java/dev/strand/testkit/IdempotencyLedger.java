package dev.strand.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a {@link TestServer}'s {@code /idempotent} endpoint has seen: a server that honours idempotency keys (the
 * IETF httpapi draft's {@code Idempotency-Key}). The first request with a key takes effect (an effective write);
 * a later one with the same key and the same body is a replay, answered as the first was and otherwise ignored; one
 * with the same key and another body is a conflict (422). One ledger per server, shared by its connections.
 *
 * {@snippet :
 * try (TestServer server = TestServer.start()) {
 *     // ... POST server.url("/idempotent") twice with Idempotency-Key: "k1" ...
 *     assert server.idempotency().effectiveWrites() == 1;
 *     assert server.idempotency().replays() == 1;
 * }
 * }
 */
public final class IdempotencyLedger {

    private final Map<String, String> writes = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder replays = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
    private final LongAdder missingKeys = new LongAdder();
    private final AtomicInteger inProgress = new AtomicInteger();

    IdempotencyLedger() {
    }

    /** What became of one request. */
    enum Outcome { WRITTEN, REPLAYED, CONFLICT, MISSING_KEY }

    /** Records one request with {@code key} (null if it had none) and {@code body}. */
    Outcome record(String key, byte[] body) {
        requests.increment();
        if (key == null) {
            missingKeys.increment();
            return Outcome.MISSING_KEY;
        }
        String text = new String(body, StandardCharsets.UTF_8);
        String before = writes.putIfAbsent(key, text);
        if (before == null) {
            return Outcome.WRITTEN;
        }
        if (before.equals(text)) {
            replays.increment();
            return Outcome.REPLAYED;
        }
        conflicts.increment();
        return Outcome.CONFLICT;
    }

    void answering(int delta) {
        inProgress.addAndGet(delta);
    }

    /** @return requests to {@code /idempotent}, of every outcome */
    public long requests() {
        return requests.sum();
    }

    /** @return distinct keys whose write took effect */
    public int effectiveWrites() {
        return writes.size();
    }

    /** @return requests whose key had already taken effect with the same body: duplicates that reached the wire */
    public long replays() {
        return replays.sum();
    }

    /** @return requests whose key had taken effect with another body (answered 422) */
    public long conflicts() {
        return conflicts.sum();
    }

    /** @return requests without a key (answered 400) */
    public long missingKeys() {
        return missingKeys.sum();
    }

    /** @return requests that took effect (or were replayed) and whose answer {@code ?delay=MS} still holds back */
    public int inProgress() {
        return inProgress.get();
    }

    /** @return the bodies (UTF-8) of the writes that took effect, one per key, in no particular order */
    public List<String> effectiveBodies() {
        return new ArrayList<>(writes.values());
    }

    /** Forgets every key and zeroes the counts (requests in progress still finish). */
    public void reset() {
        writes.clear();
        requests.reset();
        replays.reset();
        conflicts.reset();
        missingKeys.reset();
    }

    /**
     * The key in a header's value: an RFC 8941 sf-string ({@code "k"}, as the draft defines the field) unescaped,
     * or a bare value as APIs before the draft take it; null for an absent or empty value.
     */
    static String parseKey(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
            StringBuilder b = new StringBuilder(v.length());
            for (int i = 1; i < v.length() - 1; i++) {
                char c = v.charAt(i);
                if (c == '\\' && i + 1 < v.length() - 1) {
                    c = v.charAt(++i);
                }
                b.append(c);
            }
            v = b.toString();
        }
        return v.isEmpty() ? null : v;
    }
}
