package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import java.util.Locale;

/**
 * Follows a stream of HTTP/1.1 responses byte by byte to tell where one ends, so {@link FaultProxy} can put
 * stray bytes exactly after a complete response: garbage inside a response changes its body without any
 * error the client could see, which is not the fault under test.
 *
 * <p>Only heads and Content-Length bodies are followed (1xx, 204 and 304 have no body). A chunked or
 * close-delimited response, a head too large, or one that cannot be parsed makes the stream
 * <em>unknown</em> for good. Responses to HEAD requests are not told apart (the proxy does not read
 * requests): do not send HEAD through a proxy that injects stray bytes.
 */
final class ResponseBoundaries {

    private static final int MAX_HEAD = 64 * 1024;

    private final StringBuilder head = new StringBuilder();
    private long bodyLeft = -1; // -1: reading a head
    private boolean unknown;

    /**
     * Consumes {@code buf}'s readable bytes (its indexes are left alone).
     *
     * @return true when the stream is known and the last of these bytes ends a response
     */
    boolean endsResponse(ByteBuf buf) {
        boolean ended = false;
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        while (i < end && !unknown) {
            ended = false;
            if (bodyLeft > 0) {
                int n = (int) Math.min(bodyLeft, end - i);
                bodyLeft -= n;
                i += n;
                if (bodyLeft == 0) {
                    bodyLeft = -1;
                    ended = true;
                }
                continue;
            }
            head.append((char) (buf.getByte(i++) & 0xff));
            if (head.length() > MAX_HEAD) {
                unknown = true;
            } else if (headEndsWithBlankLine()) {
                ended = headEnded();
            }
        }
        return ended && !unknown;
    }

    private boolean headEndsWithBlankLine() {
        int n = head.length();
        return n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n'
                && head.charAt(n - 4) == '\r';
    }

    /** Parses the head just completed; returns true when it was a whole response by itself. */
    private boolean headEnded() {
        String[] lines = head.toString().split("\r\n");
        head.setLength(0);
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
            unknown = true;
            return false;
        }
        int code;
        try {
            code = Integer.parseInt(status[1]);
        } catch (NumberFormatException e) {
            unknown = true;
            return false;
        }
        if (code == 101) {
            unknown = true; // the connection now speaks another protocol
            return false;
        }
        if (code < 200) {
            return false; // an interim response: the final one follows
        }
        long length = -1;
        for (int k = 1; k < lines.length; k++) {
            int colon = lines[k].indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = lines[k].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[k].substring(colon + 1).trim();
            if (name.equals("transfer-encoding")) {
                unknown = true;
                return false;
            }
            if (name.equals("content-length")) {
                length = Routes.parseNonNegative(value);
            }
        }
        if (code == 204 || code == 304) {
            return true;
        }
        if (length < 0) {
            unknown = true; // close-delimited, or a length we cannot read
            return false;
        }
        bodyLeft = length == 0 ? -1 : length;
        return length == 0;
    }

    @Override
    public String toString() {
        return unknown ? "unknown" : bodyLeft > 0 ? bodyLeft + " body bytes left" : head.length() + " head bytes";
    }
}
