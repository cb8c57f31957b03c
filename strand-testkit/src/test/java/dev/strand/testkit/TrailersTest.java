package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /trailers} over HTTP/1.1: chunked body, then {@code x-checksum}. (HTTP/2: H2cPriorKnowledgeTest.) */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(30)
class TrailersTest {

    @Test
    void chunkedBodyThenChecksumTrailer() throws Exception {
        try (TestServer server = TestServer.start(); RawClient raw = new RawClient(server)) {
            RawClient.Response r = raw.get("/trailers/20000");
            assertEquals(200, r.status);
            assertEquals("chunked", r.header("transfer-encoding"));
            assertEquals("x-checksum", r.header("trailer"));
            assertArrayEquals(Payloads.bytes(20_000), r.body);
            assertEquals(1, r.trailers.size());
            assertEquals("x-checksum", r.trailers.get(0)[0]);
            assertEquals(PatternInputStream.sha256(Payloads.bytes(20_000)), r.trailers.get(0)[1]);

            RawClient.Response dflt = raw.get("/trailers");
            assertEquals(1024, dflt.body.length);
            assertEquals(PatternInputStream.sha256(Payloads.bytes(1024)), dflt.trailers.get(0)[1]);

            RawClient.Response head = raw.request("HEAD", "/trailers");
            assertEquals(200, head.status);
            assertTrue(head.trailers.isEmpty());
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body, "the connection is still in sync");
        }
    }
}
