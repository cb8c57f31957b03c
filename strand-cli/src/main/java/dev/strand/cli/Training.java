package dev.strand.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training run behind the start-up cache: {@code bin/strand} runs this class once with
 * {@code -XX:AOTCacheOutput} (JDK 25) or {@code -XX:ArchiveClassesAtExit}, so the classes that real
 * calls load and link (argument parsing, the client, Netty, output paths) are archived. It serves a
 * few responses from the JDK's built-in HTTP server on 127.0.0.1 and runs the CLI against them;
 * nothing leaves the machine. Not part of the command line.
 */
public final class Training {
  private Training() {}

  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] json = "{\"id\": 42, \"name\": \"widget\", \"tags\": [\"a\", \"b\"], \"ok\": true, \"n\": null}"
        .getBytes(StandardCharsets.UTF_8);
    server.createContext("/json", x -> reply(x, 200, "application/json", json));
    server.createContext("/text", x -> reply(x, 200, "text/plain", new byte[64 * 1024]));
    server.createContext("/echo", x -> reply(x, 200, "application/octet-stream", x.getRequestBody().readAllBytes()));
    server.createContext("/status", x -> reply(x, 404, "text/plain", new byte[0]));
    server.createContext("/events", x -> reply(x, 200, "text/event-stream",
        "id: 1\nevent: tick\ndata: one\ndata: two\n\n: keep-alive\ndata: three\n\n".getBytes(StandardCharsets.UTF_8)));
    server.createContext("/redirect", x -> {
      x.getResponseHeaders().add("Location", "/json");
      reply(x, 302, "text/plain", new byte[0]);
    });
    server.start();
    Path dir = Files.createTempDirectory("strand-training");
    Path file = Files.writeString(dir.resolve("upload.txt"), "training upload\n");
    Path out = dir.resolve("out.bin");
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    Terminal tty = new Terminal(true, true, true);
    try {
      Main.run(new String[] {"--version"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
      Main.run(new String[] {"--help"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
      Main.run(new String[] {"--bogus"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
      for (int i = 0; i < 2; i++) {
        Main.run(new String[] {base + "/json"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
        Main.run(new String[] {"-i", "-L", base + "/redirect"}, OutputStream.nullOutputStream(), quiet, tty);
        Main.run(new String[] {"-v", "-d", "a=1", "-H", "X-Training: yes", base + "/echo"},
            OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
        Main.run(new String[] {"--json", "{\"q\": 1}", base + "/echo"}, OutputStream.nullOutputStream(), quiet, tty);
        Main.run(new String[] {"-F", "a=b", "-F", "f=@" + file, base + "/echo"},
            OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
        Main.run(new String[] {"-o", out.toString(), base + "/text"}, OutputStream.nullOutputStream(), quiet, tty);
        Main.run(new String[] {"-f", "-s", base + "/status"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
        Main.run(new String[] {"--sse", base + "/events"}, OutputStream.nullOutputStream(), quiet, Terminal.PIPES);
        Main.run(new String[] {"--timeout", "1", "http://127.0.0.1:1/"}, OutputStream.nullOutputStream(), quiet,
            Terminal.PIPES);
      }
    } finally {
      server.stop(0);
      Files.deleteIfExists(out);
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
    System.exit(0);
  }

  private static void reply(HttpExchange x, int status, String type, byte[] body) throws IOException {
    x.getRequestBody().readAllBytes();
    x.getResponseHeaders().add("Content-Type", type);
    x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(body);
    }
  }
}
