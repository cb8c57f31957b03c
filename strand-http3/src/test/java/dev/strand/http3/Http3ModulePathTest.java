package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/3 for a modular application: a module that requires only {@code dev.strand} gets HTTP/3 once
 * {@code dev.strand.http3} is on the module path, found by core's {@code uses} through its {@code provides}, and
 * reaching core's internals through the exports qualified to it. Netty's native QUIC library is a module nothing
 * requires, so the application adds it to the graph (as it would Netty's other native transports).
 */
class Http3ModulePathTest {
  private static Http3TestServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    server = Http3Fixture.server(100);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** This module's classes, core and Netty's jars, all taken from the test class path. */
  private static String modulePath() {
    Path http3 = Path.of("target", "classes").toAbsolutePath();
    String rest = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> e.contains("strand-core") || Path.of(e).getFileName().toString().startsWith("netty-"))
        .collect(Collectors.joining(File.pathSeparator));
    return http3 + File.pathSeparator + rest;
  }

  @Test
  void aModularApplicationGetsHttp3FromTheModulePath() throws Exception {
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("demo"));
    Files.writeString(src.resolve("module-info.java"), "module demo { requires dev.strand; }\n");
    Files.writeString(src.resolve("demo/Main.java"), """
        package demo;
        import dev.strand.*;
        public class Main {
          public static void main(String[] args) throws Exception {
            Tls tls = Tls.builder().trustPem(java.nio.file.Path.of(args[1])).build();
            try (Client client = Client.builder().tls(tls).version(VersionPolicy.HTTP_3_ONLY).build()) {
              Response r = client.get(args[0]);
              System.out.println(r.version().name() + " " + r.status());
            }
          }
        }
        """);
    Path out = dir.resolve("out");
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int javac = ToolProvider.getSystemJavaCompiler().run(null, null, errors, "--module-path", modulePath(), "-d",
        out.toString(), src.resolve("module-info.java").toString(), src.resolve("demo/Main.java").toString());
    assertEquals(0, javac, errors.toString(StandardCharsets.UTF_8));

    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", out + File.pathSeparator + modulePath(),
        "--add-modules", "io.netty.codec.quic.linux.x86_64",
        "-m", "demo/demo.Main", server.url("/small"), TestPki.shared().ca().cert().toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the demo did not finish");
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.strip().endsWith("HTTP_3 200"), output);
  }
}
