package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** --retry against a scripted loopback server: statuses, Retry-After, connect failures. */
class CliRetryE2ETest {
  /** Each request takes the next scripted answer; the last one repeats. */
  record Answer(int status, String retryAfter, String body) {}

  private HttpServer server;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", x -> {
      requests.incrementAndGet();
      Answer a;
      synchronized (script) {
        a = script.size() > 1 ? script.poll() : script.peek();
      }
      x.getRequestBody().readAllBytes();
      if (a.retryAfter() != null) {
        x.getResponseHeaders().add("Retry-After", a.retryAfter());
      }
      byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
      try (OutputStream out = x.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  private void answers(Answer... answers) {
    script.addAll(List.of(answers));
  }

  @Test
  void retriesA503AndKeepsTheSuccess() {
    answers(new Answer(503, null, "busy"), new Answer(200, null, "done"));
    Cli.Result r = Cli.run("--retry", "2", "--retry-delay", "0.1", url());
    assertEquals(0, r.exit(), r::toString);
    assertEquals("done", r.stdout());
    assertEquals(2, requests.get());
    assertEquals("strand: HTTP 503 Service Unavailable; retry 1 of 2 in 0.1 s\n", r.stderr());
  }

  @Test
  void honoursRetryAfterOn429() {
    answers(new Answer(429, "1", ""), new Answer(200, null, "ok"));
    Cli.Result r = Cli.run("--retry", "1", "--retry-delay", "0", url());
    assertEquals(0, r.exit(), r::toString);
    assertEquals("ok", r.stdout());
    assertTrue(r.stderr().contains("retry 1 of 1 in 1.0 s"), r::toString);
  }

  @Test
  void givesUpAfterNRetriesAndReportsTheLastAnswer() {
    answers(new Answer(500, null, "broken"));
    Cli.Result r = Cli.run("-f", "-sS", "--retry", "2", "--retry-delay", "0.05", url());
    assertEquals(22, r.exit(), r::toString);
    assertEquals(3, requests.get(), "one try and two retries");
    assertEquals("strand: HTTP 500 Internal Server Error (GET " + url() + ")\n", r.stderr(), "-s hides retry notices");
  }

  @Test
  void doesNotRetryOtherStatusesOrWithoutTheFlag() {
    answers(new Answer(404, null, "nope"));
    assertEquals(0, Cli.run("--retry", "3", "--retry-delay", "0", url()).exit());
    assertEquals(1, requests.get());
    answers(new Answer(503, null, "busy"));
    requests.set(0);
    assertEquals(0, Cli.run(url()).exit());
    assertEquals(1, requests.get());
  }

  @Test
  void retriesRefusedConnectionsWhenAsked() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Cli.Result once = Cli.run("--retry", "2", "--retry-delay", "0.05", "http://127.0.0.1:" + port + "/");
    assertEquals(1, once.stderr().lines().count(), "a refusal is not transient to curl: " + once);
    Cli.Result r = Cli.run("--retry", "2", "--retry-connrefused", "--retry-delay", "0.05", "http://127.0.0.1:" + port + "/");
    assertEquals(7, r.exit(), r::toString);
    assertEquals(3, r.stderr().lines().count(), "two retry notices and the final failure: " + r);
    assertTrue(r.stderr().lines().toList().get(2).startsWith("strand: cannot connect to 127.0.0.1:" + port), r::toString);
  }
}
