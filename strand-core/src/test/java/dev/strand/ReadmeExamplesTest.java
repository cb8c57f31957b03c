package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/** Keeps the README honest: every ```java block in it must compile against the current API. */
class ReadmeExamplesTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final String IMPORTS = """
      import dev.strand.*;
      import dev.strand.EventListener; // java.util has one too: a single-type import decides, as in users' code
      import java.nio.file.*;
      import java.time.*;
      import java.util.*;
      import java.util.concurrent.*;
      """;

  @Test
  void everyJavaBlockInTheReadmeCompiles() throws IOException {
    String readme = Files.readString(findReadme());
    List<JavaFileObject> sources = new ArrayList<>();
    Matcher m = JAVA_BLOCK.matcher(readme);
    while (m.find()) {
      int n = sources.size();
      String code = IMPORTS + "class ReadmeExample" + n + " {\n  void run() throws Exception {\n"
          + m.group(1) + "\n  }\n}\n";
      sources.add(new Source("ReadmeExample" + n, code));
    }
    assertTrue(sources.size() >= 4, "expected the README's API tour, found " + sources.size() + " java blocks");

    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("readme-examples");
    List<String> options = List.of("-classpath", TestRuntime.asClassPath(), "-d", out.toString(),
        "-proc:none");
    StringWriter log = new StringWriter();
    boolean ok = compiler.getTask(log, null, diagnostics, options, null, sources).call();
    StringBuilder errors = new StringBuilder(log.toString());
    diagnostics.getDiagnostics().forEach(d -> errors.append(d).append('\n'));
    assertTrue(ok, "README examples do not compile:\n" + errors);
    assertEquals(sources.size(), countClasses(out));
  }

  private static long countClasses(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches("ReadmeExample\\d+\\.class")).count();
    }
  }

  private static Path findReadme() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("README.md");
  }

  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(String className, String code) {
      super(URI.create("string:///" + className + ".java"), Kind.SOURCE);
      this.code = code;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
