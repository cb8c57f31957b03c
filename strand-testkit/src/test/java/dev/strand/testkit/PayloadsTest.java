package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadsTest {

    @Test
    void smallIsPythonsJsonDumps() {
        assertEquals("{\"id\": 42, \"name\": \"widget\", \"tags\": [\"a\", \"b\", \"c\"], \"price\": 19.99, "
                + "\"in_stock\": true, \"description\": \"" + "x".repeat(80) + "\"}",
                new String(Payloads.SMALL, StandardCharsets.US_ASCII));
        assertEquals(186, Payloads.SMALL.length);
    }

    @Test
    void sequence() {
        byte[] b = Payloads.bytes(1000);
        for (int i = 0; i < b.length; i++) {
            assertEquals((byte) (i * 31 + 7), b[i]);
            assertEquals(b[i], Payloads.at(i + 256L * 1_000_000_000L));
        }
        assertEquals(96256, Payloads.BIG.length);
        assertEquals(Payloads.BIG[96255], Payloads.at(96255));
    }

    @Test
    void jsonWriter() {
        String json = new Json().beginObject()
                .name("s").value("q\"b\\n\n\u0001")
                .name("a").beginArray().value(1).value(true).beginObject().endObject().endArray()
                .name("m").value(Map.of("K", List.of("v1", "v2")))
                .endObject().toString();
        assertEquals("{\"s\": \"q\\\"b\\\\n\\n\\u0001\", \"a\": [1, true, {}], "
                + "\"m\": {\"K\": [\"v1\", \"v2\"]}}", json);
    }
}
