package dev.strand.guide;

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

/**
 * The site's reference pages (docs/*.md) keep their Java blocks inline: each must compile against the current
 * API. The guide's own pages take every sample from this module's tests instead (bin/lib/site.py refuses a
 * literal Java block there).
 */
class ReferencePagesCompileTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final String IMPORTS = """
      import dev.strand.*;
      import dev.strand.EventListener;
      import java.nio.file.*;
      import java.time.*;
      import java.util.*;
      import java.util.concurrent.*;
      """;

  @Test
  void everyJavaBlockOfTheReferencePagesCompiles() throws IOException {
    Path docs = root().resolve("docs");
    List<JavaFileObject> sources = new ArrayList<>();
    try (var pages = Files.list(docs)) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        Matcher m = JAVA_BLOCK.matcher(Files.readString(page));
        while (m.find()) {
          String name = "DocExample" + sources.size();
          sources.add(new Source(name, IMPORTS + "class " + name + " { // " + page.getFileName()
              + "\n  void run() throws Exception {\n" + m.group(1) + "\n  }\n}\n"));
        }
      }
    }
    assertTrue(sources.size() >= 2, "expected docs/networks-proxies.md's examples, found " + sources.size());
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("doc-examples");
    List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(),
        "-proc:none");
    StringWriter log = new StringWriter();
    boolean ok = compiler.getTask(log, null, diagnostics, options, null, sources).call();
    StringBuilder errors = new StringBuilder(log.toString());
    diagnostics.getDiagnostics().forEach(d -> errors.append(d).append('\n'));
    assertTrue(ok, "Java blocks in docs/*.md do not compile:\n" + errors);
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("docs/guide"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("docs/guide not found above " + Path.of("").toAbsolutePath());
    }
    return dir;
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
