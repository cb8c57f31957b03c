package dev.strand.flink;

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
 * A loopback HTTP server with state the testkit's stateless endpoints lack, and a request log:
 * <ul>
 *   <li>{@code /flaky/KEY}: the first {@code failures} calls per KEY answer 503 with {@code Retry-After: 1}, then
 *       200 with body {@code ok:KEY};
 *   <li>{@code /ingest}: 200; the body is logged (one entry per request);
 *   <li>{@code /users/ID}: 200 with {@code {"id":"ID","name":"user-ID"}}; 404 for an ID starting with
 *       {@code missing}, a body that is not JSON for one starting with {@code garbage}; calls counted per
 *       {@code user:ID};
 *   <li>{@code /lookup}: takes {@code {"id":"ID"}} (logged as a body), answers as {@code /users/ID} would, with
 *       {@code posted-ID} as the name.
 *   <li>{@code /inject?point=P&attempt=A}: a script of failure points ({@link #failureScript}) that a job in
 *       another JVM claims, each once and in order: {@code fail NEXT} if P is the next point and A (the task's
 *       attempt number) equals the points claimed so far, so that each failure follows the restart the one before
 *       caused (P is now claimed); else {@code pass NEXT}; without {@code point}, {@code next NEXT}. NEXT is the
 *       point after, or {@code done}.
 * </ul>
 * It can be stopped and started again on the same port, to play a server that is down for a while.
 */
final class ScriptedServer implements AutoCloseable {
    private final int failures;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> bodies = new ConcurrentLinkedQueue<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final Map<String, Integer> injected = new java.util.LinkedHashMap<>();
    private List<String> script = List.of();
    private java.util.function.IntSupplier inFlight = () -> -1;
    private java.util.Set<String> awaitInFlight = java.util.Set.of();
    private final Map<String, Integer> deferrals = new java.util.HashMap<>();
    private static final int MAX_DEFERRALS = 200;
    private int port;
    private HttpServer server;
    private ExecutorService executor;

    private ScriptedServer(int failures) {
        this.failures = failures;
    }

    static ScriptedServer start(int failures) {
        ScriptedServer s = new ScriptedServer(failures);
        s.bind(0);
        return s;
    }

    private synchronized void bind(int p) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), p), 128);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/flaky/", this::flaky);
        server.createContext("/ingest", this::ingest);
        server.createContext("/users/", this::users);
        server.createContext("/lookup", this::lookup);
        server.createContext("/inject", this::inject);
        server.start();
        port = server.getAddress().getPort();
    }

    /** Stops listening; connections are refused until {@link #restart()}. */
    synchronized void stop() {
        server.stop(0);
        executor.close();
    }

    /** Listens again on the same port. */
    synchronized void restart() {
        bind(port);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    int calls(String key) {
        AtomicInteger n = calls.get(key);
        return n == null ? 0 : n.get();
    }

    int requests() {
        return requests.get();
    }

    List<String> bodies() {
        return List.copyOf(bodies);
    }

    /**
     * The failure points {@code /inject} hands out, in order; {@code inFlight} is read when each is claimed (the
     * requests then in flight at the sink's server). A point of {@code awaitInFlight} is not handed out while
     * nothing is in flight (the job asks again at its next record or checkpoint), up to {@link #MAX_DEFERRALS}
     * times each: on a loaded machine the sink may be idle at the moment a failure would otherwise fall, and a
     * failure with nothing in flight tests less.
     */
    synchronized void failureScript(List<String> points, java.util.function.IntSupplier inFlight,
            java.util.Set<String> awaitInFlight) {
        this.script = List.copyOf(points);
        this.inFlight = inFlight;
        this.awaitInFlight = java.util.Set.copyOf(awaitInFlight);
        injected.clear();
        deferrals.clear();
    }

    /** The points claimed so far, in order, each with the requests in flight when it was claimed. */
    synchronized Map<String, Integer> injected() {
        return new java.util.LinkedHashMap<>(injected);
    }

    /** Whether to hold {@code point} back once more: it waits for requests in flight, and none are. */
    private boolean deferred(String point) {
        if (!awaitInFlight.contains(point) || inFlight.getAsInt() > 0) {
            return false;
        }
        return deferrals.merge(point, 1, Integer::sum) <= MAX_DEFERRALS;
    }

    private void inject(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getQuery();
        Map<String, String> params = new java.util.HashMap<>();
        for (String pair : query == null ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
        }
        String point = params.get("point");
        int attempt = Integer.parseInt(params.getOrDefault("attempt", "-1"));
        String answer;
        synchronized (this) {
            String next = injected.size() < script.size() ? script.get(injected.size()) : "done";
            if (point == null) {
                answer = "next " + next;
            } else if (point.equals(next) && attempt == injected.size() && !deferred(point)) {
                injected.put(point, inFlight.getAsInt());
                answer = "fail " + (injected.size() < script.size() ? script.get(injected.size()) : "done");
            } else {
                answer = "pass " + next;
            }
        }
        send(ex, 200, answer);
    }

    private void flaky(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        String key = ex.getRequestURI().getPath().substring("/flaky/".length());
        int n = calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        if (n <= failures) {
            ex.getResponseHeaders().set("Retry-After", "1");
            send(ex, 503, "busy");
        } else {
            send(ex, 200, "ok:" + key);
        }
    }

    private void users(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        String id = ex.getRequestURI().getPath().substring("/users/".length());
        calls.computeIfAbsent("user:" + id, k -> new AtomicInteger()).incrementAndGet();
        if (id.startsWith("missing")) {
            send(ex, 404, "no such user");
        } else if (id.startsWith("garbage")) {
            send(ex, 200, "<html>not json");
        } else {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            send(ex, 200, "{\"id\":\"" + id + "\",\"name\":\"user-" + id + "\"}");
        }
    }

    private void lookup(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        bodies.add(ex.getRequestMethod() + " " + ex.getRequestHeaders().getFirst("Content-Type") + " " + body);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"id\"\\s*:\\s*\"([^\"]*)\"").matcher(body);
        if (!m.find()) {
            send(ex, 400, "no id");
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "application/json");
        send(ex, 200, "{\"id\":\"" + m.group(1) + "\",\"name\":\"posted-" + m.group(1) + "\"}");
    }

    private void ingest(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        send(ex, 200, "");
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            ex.getResponseBody().write(b);
        }
        ex.close();
    }

    @Override
    public void close() {
        stop();
    }
}
