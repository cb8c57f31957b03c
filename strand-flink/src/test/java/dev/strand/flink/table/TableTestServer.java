package dev.strand.flink.table;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP server for the SQL tests, with a request log:
 * <ul>
 *   <li>{@code GET /users/ID}: for ID 1 to {@code known}, 200 with
 *       {@code {"name":"user-ID","score":ID*10}} (no {@code id}: the connector fills it from the key); else 404;
 *   <li>{@code GET /echo/TEXT}: 200 with {@code {"encoded":"<raw path after /echo/>"}}, to see the URL's encoding;
 *   <li>{@code GET /boom/ID}: 500;
 *   <li>{@code GET /garbage/ID}: 200 with a body that is not JSON;
 *   <li>{@code /ingest/...}: 200; method, raw path, content type, {@code X-Token} and body are logged;
 *   <li>{@code POST /lookup}: logged as {@code /ingest} is, then 200 with {@code {"name":"posted","score":1}}.
 * </ul>
 */
final class TableTestServer implements AutoCloseable {

    /** One request to {@code /ingest}. */
    record Ingested(String method, String path, String contentType, String token, String body) {
    }

    private final int known;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Ingested> ingested = new ConcurrentLinkedQueue<>();

    TableTestServer(int known) {
        this.known = known;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/users/", this::users);
        server.createContext("/echo/", this::echo);
        server.createContext("/boom/", ex -> {
            count(ex);
            send(ex, 500, "{\"error\":\"boom\"}");
        });
        server.createContext("/garbage/", ex -> {
            count(ex);
            send(ex, 200, "<html>not json</html>");
        });
        server.createContext("/ingest", this::ingest);
        server.createContext("/lookup", ex -> {
            log(ex);
            send(ex, 200, "{\"name\":\"posted\",\"score\":1}");
        });
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** @return requests for this raw path, e.g. {@code "/users/7"} */
    int calls(String path) {
        AtomicInteger n = calls.get(path);
        return n == null ? 0 : n.get();
    }

    /** @return requests to paths starting with {@code prefix} */
    int callsUnder(String prefix) {
        return calls.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .mapToInt(e -> e.getValue().get()).sum();
    }

    List<Ingested> ingested() {
        return List.copyOf(ingested);
    }

    private String count(HttpExchange ex) {
        String path = ex.getRequestURI().getRawPath();
        calls.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
        return path;
    }

    private void users(HttpExchange ex) throws IOException {
        String id = count(ex).substring("/users/".length());
        long n;
        try {
            n = Long.parseLong(id);
        } catch (NumberFormatException e) {
            send(ex, 400, "not a number");
            return;
        }
        if (n >= 1 && n <= known) {
            send(ex, 200, "{\"name\":\"user-" + n + "\",\"score\":" + n * 10 + "}");
        } else {
            send(ex, 404, "");
        }
    }

    private void echo(HttpExchange ex) throws IOException {
        String raw = count(ex).substring("/echo/".length());
        send(ex, 200, "{\"encoded\":\"" + raw + "\"}");
    }

    private void ingest(HttpExchange ex) throws IOException {
        log(ex);
        send(ex, 200, "");
    }

    private void log(HttpExchange ex) throws IOException {
        count(ex);
        ingested.add(new Ingested(ex.getRequestMethod(), ex.getRequestURI().getRawPath(),
                ex.getRequestHeaders().getFirst("Content-Type"), ex.getRequestHeaders().getFirst("X-Token"),
                new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            ex.getResponseBody().write(b);
        }
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
