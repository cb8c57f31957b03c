package dev.strand.testkit;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * {@code /fault/NAME}: responses that break HTTP on purpose, written as raw bytes past the encoder, after
 * which the connection is closed (or reset). The bytes below are the contract clients' tests rely on.
 *
 * <p>Over HTTP/2 there are no raw bytes to break; each fault takes its nearest HTTP/2 form instead:
 * <ul>
 * <li>{@code close-after-headers}: HEADERS (content-length 100), then the TCP connection is dropped;
 * <li>{@code reset-mid-body}: HEADERS (content-length 100000), 1024 pattern bytes, RST_STREAM(INTERNAL_ERROR);
 * <li>{@code wrong-length}: HEADERS (content-length 1000) and 10 bytes ending the stream (a malformed
 *     response, RFC 9113 8.1.1);
 * <li>{@code bad-status-line}: HEADERS with {@code :status abc}, ending the stream (malformed, RFC 9113 8.3.2);
 * <li>{@code huge-headers}: the same 140 KiB of header fields in HEADERS and CONTINUATION frames (when the
 *     client advertised a smaller SETTINGS_MAX_HEADER_LIST_SIZE, Netty refuses and resets the stream);
 * <li>{@code close}: the TCP connection is dropped, no bytes;
 * <li>{@code bad-chunk}, {@code both-lengths}: HTTP/1.1 framing with no HTTP/2 counterpart: 404 saying so.
 * </ul>
 * "Dropped" means closed past TLS and the HTTP/2 codec: no close_notify, no GOAWAY, and every other stream on
 * that connection fails with it.
 */
final class FaultEndpoints {

    /** Head promising 100 bytes; nothing follows. */
    static final String CLOSE_AFTER_HEADERS =
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n";

    /** Head promising 100000 bytes, then this many pattern bytes, then a TCP RST. */
    static final int RESET_AFTER_BYTES = 1024;

    static final String RESET_MID_BODY_HEAD =
            "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n";

    static final String WRONG_LENGTH =
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\n0123456789";

    static final String BAD_STATUS_LINE = "HTTP/1.1 abc Bad\r\n\r\n";

    /** One good chunk, then a chunk-size line that is not hex. */
    static final String BAD_CHUNK =
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n";

    /** A well-formed chunked body, but the head also carries Content-Length (RFC 9112 6.3: a smuggling sign). */
    static final String BOTH_LENGTHS = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n"
            + "transfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";

    /** A valid, empty response whose header section is 140 KiB and change. */
    static final String HUGE_HEADERS = hugeHeaders();

    private FaultEndpoints() {
    }

    static Exchange route(String name) {
        return switch (name) {
            case "close-after-headers" -> raw(CLOSE_AFTER_HEADERS, Http2Faults::closeAfterHeaders);
            case "wrong-length" -> raw(WRONG_LENGTH, Http2Faults::wrongLength);
            case "bad-status-line" -> raw(BAD_STATUS_LINE, Http2Faults::badStatus);
            case "bad-chunk" -> raw(BAD_CHUNK, c -> Http2Faults.notApplicable(c, "bad-chunk"));
            case "both-lengths" -> raw(BOTH_LENGTHS, c -> Http2Faults.notApplicable(c, "both-lengths"));
            case "huge-headers" -> raw(HUGE_HEADERS, Http2Faults::hugeHeaders);
            case "reset-mid-body" -> Exchange.of(c -> {
                if (c.isHttp2()) {
                    Http2Faults.resetMidBody(c);
                } else {
                    c.sendRawAndReset(Unpooled.wrappedBuffer(
                            Unpooled.wrappedBuffer(ascii(RESET_MID_BODY_HEAD)),
                            Unpooled.wrappedBuffer(Payloads.bytes(RESET_AFTER_BYTES))));
                }
            });
            case "close" -> new Exchange() {
                @Override
                void onRequest(HttpConnection c) {
                    close(c);
                }

                @Override
                void onRequestComplete(HttpConnection c) {
                    close(c);
                }

                private void close(HttpConnection c) {
                    if (c.isHttp2()) {
                        c.dropConnection();
                    } else {
                        c.closeNow();
                    }
                }
            };
            default -> Routes.NOT_FOUND;
        };
    }

    private static Exchange raw(String bytes, Exchange.Handler http2) {
        byte[] b = ascii(bytes);
        return Exchange.of(c -> {
            if (c.isHttp2()) {
                http2.handle(c);
            } else {
                c.sendRawAndClose(Unpooled.wrappedBuffer(b));
            }
        });
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String hugeHeaders() {
        StringBuilder sb = new StringBuilder(150 * 1024).append("HTTP/1.1 200 OK\r\n");
        String filler = "f".repeat(1000);
        for (int i = 0; i < 140; i++) {
            sb.append("x-filler-").append(i).append(": ").append(filler).append("\r\n");
        }
        return sb.append("content-length: 0\r\nconnection: close\r\n\r\n").toString();
    }
}
