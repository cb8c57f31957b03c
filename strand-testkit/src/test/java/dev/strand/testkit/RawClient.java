package dev.strand.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A byte-exact HTTP/1.1 client over one socket, for checks the JDK client hides or forbids. */
final class RawClient implements Closeable {

    final Socket socket;
    final InputStream in;
    final OutputStream out;

    RawClient(TestServer server) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(server.host(), server.port()), 5_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        out = socket.getOutputStream();
    }

    RawClient send(String request) throws IOException {
        return send(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** GET (or another method without a body) with only a Host header plus {@code extraHeaders}. */
    Response request(String method, String target, String... extraHeaders) throws IOException {
        StringBuilder sb = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: test\r\n");
        for (String h : extraHeaders) {
            sb.append(h).append("\r\n");
        }
        send(sb.append("\r\n").toString());
        return read("HEAD".equals(method));
    }

    Response get(String target, String... extraHeaders) throws IOException {
        return request("GET", target, extraHeaders);
    }

    Response read() throws IOException {
        return read(false);
    }

    /** Reads one response; {@code head} means no body follows whatever the headers say. */
    Response read(boolean head) throws IOException {
        Response r = new Response();
        String statusLine = line();
        r.raw.append(statusLine).append("\r\n");
        String[] parts = statusLine.split(" ", 3);
        r.version = parts[0];
        r.status = Integer.parseInt(parts[1]);
        r.reason = parts.length > 2 ? parts[2] : "";
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            r.headers.add(new String[] {h.substring(0, colon), h.substring(colon + 1).trim()});
            r.raw.append(h).append("\r\n");
        }
        if (head || r.status / 100 == 1 || r.status == 204 || r.status == 304) {
            return r;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(r.header("transfer-encoding"))) {
            while (true) {
                int size = Integer.parseInt(line().trim(), 16);
                if (size == 0) {
                    for (String t = line(); !t.isEmpty(); t = line()) {
                        int colon = t.indexOf(':');
                        r.trailers.add(new String[] {t.substring(0, colon), t.substring(colon + 1).trim()});
                    }
                    break;
                }
                r.chunkSizes.add(size);
                body.write(in.readNBytes(size));
                if (!line().isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
        } else if (r.header("content-length") != null) {
            int n = Integer.parseInt(r.header("content-length"));
            byte[] b = in.readNBytes(n);
            if (b.length != n) {
                throw new EOFException("body cut at " + b.length + " of " + n);
            }
            body.write(b);
        }
        r.body = body.toByteArray();
        return r;
    }

    /** Everything until the server closes. */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** True if the server has closed its side (read returns EOF). */
    boolean atEof() throws IOException {
        return in.read() == -1;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed after: " + sb);
            }
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) b);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static final class Response {
        String version;
        int status;
        String reason;
        final List<String[]> headers = new ArrayList<>();
        final List<Integer> chunkSizes = new ArrayList<>();
        final List<String[]> trailers = new ArrayList<>();
        final StringBuilder raw = new StringBuilder();
        byte[] body = new byte[0];

        String header(String name) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    return h[1];
                }
            }
            return null;
        }

        List<String> headers(String name) {
            List<String> values = new ArrayList<>();
            for (String[] h : headers) {
                if (h[0].toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                    values.add(h[1]);
                }
            }
            return values;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
