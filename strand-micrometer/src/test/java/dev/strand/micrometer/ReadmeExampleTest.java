package dev.strand.micrometer;

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

/**
 * The root README's examples of this module (fenced {@code ```java strand-micrometer}, which the core's own
 * README test leaves out, having no micrometer on its class path) must compile against the current API.
 */
class ReadmeExampleTest {
  private static final Pattern BLOCK = Pattern.compile("```java strand-micrometer\\n(.*?)```", Pattern.DOTALL);
  private static final String IMPORTS = """
      import dev.strand.*;
      import dev.strand.micrometer.*;
      import io.micrometer.core.instrument.*;
      import io.micrometer.core.instrument.simple.*;
      import io.micrometer.observation.*;
      import java.util.*;
      """;

  @Test
  void theReadmeExamplesCompile() throws IOException {
    Path readme = Path.of("").toAbsolutePath().getParent().resolve("README.md");
    List<JavaFileObject> sources = new ArrayList<>();
    Matcher m = BLOCK.matcher(Files.readString(readme));
    while (m.find()) {
      String name = "ReadmeExample" + sources.size();
      String code = IMPORTS + "class " + name + " {\n  void run() throws Exception {\n" + m.group(1) + "\n  }\n}\n";
      sources.add(new Source(name, code));
    }
    assertEquals(1, sources.size(), "the README's strand-micrometer example");
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("readme-examples");
    StringWriter log = new StringWriter();
    boolean ok = compiler.getTask(log, null, diagnostics,
        List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-proc:none"),
        null, sources).call();
    StringBuilder errors = new StringBuilder(log.toString());
    diagnostics.getDiagnostics().forEach(d -> errors.append(d).append('\n'));
    assertTrue(ok, "README examples do not compile:\n" + errors);
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
