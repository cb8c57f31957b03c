package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Bytes prepared once per JVM so hot endpoints only write. The buffers are direct (no copy on the way to the
 * socket), outside the leak detector (they live forever by design) and unreleasable (every writer gets a
 * {@code duplicate()} or {@code slice()}, and the encoder's release of it is a no-op).
 */
final class Canned {

    /** Longest slice the streamers take from {@link #PATTERN}. */
    static final int MAX_SLICE = 64 * 1024;

    // Untracked: a leak report for buffers that are meant to live forever would only be noise.
    private static final ByteBufAllocator ALLOC = new UnpooledByteBufAllocator(true, true);

    /**
     * {@link #MAX_SLICE} + 256 bytes of the {@link Payloads} sequence. Because the sequence repeats every 256
     * bytes, bytes {@code [offset, offset + n)} of it are {@code PATTERN.slice(offset & 255, n)}.
     */
    static final ByteBuf PATTERN = forever(Payloads.bytes(MAX_SLICE + 256));

    /** The whole /small response, HTTP/1.1 keep-alive. */
    static final ByteBuf SMALL_RESPONSE = forever(encoded("application/json", Payloads.SMALL));

    /** The whole /big response, HTTP/1.1 keep-alive. */
    static final ByteBuf BIG_RESPONSE = forever(encoded("application/octet-stream", Payloads.BIG));

    static final byte[] GZIP_BODY = compress(Payloads.GZIP_JSON, true);

    static final byte[] DEFLATE_BODY = compress(Payloads.DEFLATE_JSON, false);

    private Canned() {
    }

    /** Does nothing; calling it runs the static initializer. */
    static void warmUp() {
    }

    /** Bytes {@code [offset, offset + length)} of the Payloads sequence, {@code length <= MAX_SLICE}. */
    static ByteBuf pattern(long offset, int length) {
        return PATTERN.slice((int) (offset & 255), length);
    }

    private static byte[] encoded(String contentType, byte[] body) {
        byte[] head = ("HTTP/1.1 200 OK\r\n"
                + "content-type: " + contentType + "\r\n"
                + "content-length: " + body.length + "\r\n"
                + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private static ByteBuf forever(byte[] bytes) {
        ByteBuf buf = ALLOC.directBuffer(bytes.length, bytes.length).writeBytes(bytes);
        return Unpooled.unreleasableBuffer(buf);
    }

    private static byte[] compress(byte[] data, boolean gzip) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var z = gzip ? new GZIPOutputStream(out) : new DeflaterOutputStream(out)) {
            z.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
