package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Where FaultProxy may put stray bytes: exactly at the end of a response it can follow, nowhere else. */
class ResponseBoundariesTest {

    private static boolean ends(ResponseBoundaries b, String bytes) {
        ByteBuf buf = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        try {
            return b.endsResponse(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void contentLengthResponseSplitAnywhere() {
        ResponseBoundaries b = new ResponseBoundaries();
        assertFalse(ends(b, "HTTP/1.1 200 OK\r\nContent-Le"));
        assertFalse(ends(b, "ngth: 5\r\n\r"));
        assertFalse(ends(b, "\nabc"));
        assertTrue(ends(b, "de"));
        assertTrue(ends(b, "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"), "the next one, in one piece");
    }

    @Test
    void bodilessAndInterimResponses() {
        ResponseBoundaries b = new ResponseBoundaries();
        assertFalse(ends(b, "HTTP/1.1 100 Continue\r\n\r\n"), "a final response follows");
        assertTrue(ends(b, "HTTP/1.1 204 No Content\r\n\r\n"));
        assertTrue(ends(b, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    }

    @Test
    void chunkedOrCloseDelimitedMakesTheStreamUnknownForGood() {
        ResponseBoundaries chunked = new ResponseBoundaries();
        assertFalse(ends(chunked, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"));
        assertFalse(ends(chunked, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
        ResponseBoundaries closeDelimited = new ResponseBoundaries();
        assertFalse(ends(closeDelimited, "HTTP/1.1 200 OK\r\n\r\nuntil the end"));
    }
}
