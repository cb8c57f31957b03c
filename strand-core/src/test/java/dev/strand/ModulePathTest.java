package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strand on the module path, as a modular application uses it: a small module that requires
 * {@code dev.strand} compiles and makes a request, and one that reaches into {@code dev.strand.internal}
 * does not compile, because core exports only its API.
 */
class ModulePathTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @TempDir
  Path dir;

  /** Core's classes and Netty's jars: what a modular application puts on its module path. */
  private static String modulePath() {
    Path core = Path.of("target", "classes").toAbsolutePath();
    String netty = TestRuntime.entries()
        .filter(e -> Path.of(e).getFileName().toString().startsWith("netty-"))
        .collect(Collectors.joining(File.pathSeparator));
    return core + File.pathSeparator + netty;
  }

  private Path demo(String mainBody) throws IOException {
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("demo"));
    Files.writeString(src.resolve("module-info.java"), "module demo { requires dev.strand; }\n");
    Files.writeString(src.resolve("demo/Main.java"), """
        package demo;
        public class Main {
          public static void main(String[] args) throws Exception {
            %s
          }
        }
        """.formatted(mainBody));
    return src;
  }

  private int javac(Path src, Path out, ByteArrayOutputStream errors) {
    return ToolProvider.getSystemJavaCompiler().run(null, null, errors, "--module-path", modulePath(), "-d",
        out.toString(), src.resolve("module-info.java").toString(), src.resolve("demo/Main.java").toString());
  }

  @Test
  void aModularApplicationMakesARequest() throws Exception {
    Path src = demo("""
        try (dev.strand.Client client = dev.strand.Client.create()) {
              System.out.println(client.get(args[0]).status());
            }""");
    Path out = dir.resolve("out");
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    assertEquals(0, javac(src, out, errors), errors.toString(StandardCharsets.UTF_8));

    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", out + File.pathSeparator + modulePath(), "-m", "demo/demo.Main", server.url("/small")));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the demo did not finish");
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.strip().endsWith("200"), output);
  }

  @Test
  void internalsAreNotExported() throws Exception {
    Path src = demo("System.out.println(dev.strand.internal.client.Urls.class);");
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    assertNotEquals(0, javac(src, dir.resolve("out"), errors));
    assertTrue(errors.toString(StandardCharsets.UTF_8).contains("is not visible"), errors.toString(StandardCharsets.UTF_8));
  }

  /**
   * Surefire runs these tests on the module path, patched into {@code dev.strand}: the descriptor is in force here,
   * so what core exports is what the checks above and every other test see, not a class path's everything.
   */
  @Test
  void theseTestsRunInsideTheNamedModule() {
    Module core = Client.class.getModule();
    assertEquals("dev.strand", core.getName());
    assertSame(core, getClass().getModule());
    assertTrue(core.getDescriptor().exports().stream().anyMatch(e -> e.source().equals("dev.strand") && !e.isQualified()));
    // The engine's internals are exported to the HTTP/3 module alone, and the rest not at all.
    for (ModuleDescriptor.Exports e : core.getDescriptor().exports()) {
      if (e.source().startsWith("dev.strand.internal")) {
        assertEquals(Set.of("dev.strand.http3"), e.targets(), e.source());
      }
    }
    assertFalse(core.isExported("dev.strand.internal.netty"));
    assertFalse(core.isExported("dev.strand.internal.client"));
    // Netty is a named module too: core reads it by its requires, not through the class path.
    assertTrue(io.netty.channel.Channel.class.getModule().isNamed());
    assertTrue(core.canRead(io.netty.channel.Channel.class.getModule()));
  }
}
