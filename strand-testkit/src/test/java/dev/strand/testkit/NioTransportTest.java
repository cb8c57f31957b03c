package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The NIO fallback serves the same bytes as epoll. */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(30)
class NioTransportTest {

    @Test
    void nioServesTheSameBytes() throws IOException {
        try (TestServer server = TestServer.builder().preferNio(true).build(); RawClient raw = new RawClient(server)) {
            assertEquals("nio", server.transportName());
            assertArrayEquals(Payloads.SMALL, raw.get("/small").body);
            assertArrayEquals(Payloads.BIG, raw.get("/big").body);
            assertArrayEquals(Payloads.bytes(3_000_000), raw.get("/bytes/3000000").body);
            assertArrayEquals(Payloads.bytes(50_000), raw.get("/chunked/50000").body);
            assertEquals(1, server.acceptedConnections());
        }
    }
}
