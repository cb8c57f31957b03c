package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Compares the public API of {@code dev.strand} and of the transport SPI {@code dev.strand.spi} with the
 * checked-in listing {@code api/strand-core.api},
 * so that every API change is a deliberate, reviewed edit. After an intended change, regenerate with
 * {@code mvn -pl strand-core test -Dtest=PublicApiTest -Dstrand.api.update=true}.
 */
class PublicApiTest {
  private static final Path LISTING = Path.of("api", "strand-core.api");
  /** The exported packages: both are promises to someone, users or transport implementers. */
  private static final List<String> PACKAGES = List.of("dev.strand", "dev.strand.spi");

  @Test
  void publicApiMatchesTheCheckedInListing() throws Exception {
    String actual = String.join("\n", listing()) + "\n";
    if (Boolean.getBoolean("strand.api.update")) {
      Files.createDirectories(LISTING.getParent());
      Files.writeString(LISTING, actual, StandardCharsets.UTF_8);
    }
    String expected = Files.readString(LISTING, StandardCharsets.UTF_8);
    assertEquals(expected, actual, "public API changed; if intended, regenerate " + LISTING
        + " with -Dstrand.api.update=true and review the diff");
  }

  @Test
  void internalPackagesAreNotExported() {
    Module module = Client.class.getModule();
    if (module.isNamed()) {
      assertEquals(false, module.isExported("dev.strand.internal.client"));
      assertEquals(Set.copyOf(PACKAGES), module.getDescriptor().exports().stream()
          .filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
    }
    assertEquals(false, Modifier.isPublic(Futures.class.getModifiers()), "Futures is an implementation detail");
  }

  static List<String> listing() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = Path.of(Client.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    TreeSet<String> lines = new TreeSet<>();
    for (String pkg : PACKAGES) {
      try (Stream<Path> files = Files.list(root.resolve(pkg.replace('.', '/')))) {
        for (Path file : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          String name = pkg + "." + file.getFileName().toString().replace(".class", "");
          Class<?> type = Class.forName(name, false, PublicApiTest.class.getClassLoader());
          if (!isVisible(type)) {
            continue;
          }
          String owner = type.getName();
          lines.add(owner + " :: " + describe(type));
          List<Member> members = new ArrayList<>();
          members.addAll(Arrays.asList(type.getDeclaredConstructors()));
          members.addAll(Arrays.asList(type.getDeclaredMethods()));
          members.addAll(Arrays.asList(type.getDeclaredFields()));
          for (Member m : members) {
            if ((Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers())) && !m.isSynthetic()) {
              lines.add(owner + " :: " + genericString(m));
            }
          }
        }
      }
    }
    return new ArrayList<>(lines);
  }

  private static boolean isVisible(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass()) {
        return false;
      }
    }
    return true;
  }

  private static String describe(Class<?> type) {
    StringBuilder sb = new StringBuilder(Modifier.toString(type.getModifiers() & ~Modifier.STATIC & ~Modifier.INTERFACE));
    sb.append(type.isInterface() ? " interface " : type.isEnum() ? " enum " : type.isRecord() ? " record " : " class ");
    sb.append(type.getName());
    if (type.getGenericSuperclass() != null && type.getSuperclass() != Object.class && !type.isEnum() && !type.isRecord()) {
      sb.append(" extends ").append(type.getGenericSuperclass().getTypeName());
    }
    if (type.getGenericInterfaces().length > 0) {
      sb.append(type.isInterface() ? " extends " : " implements ");
      sb.append(String.join(", ", Arrays.stream(type.getGenericInterfaces()).map(t -> t.getTypeName()).toList()));
    }
    return sb.toString().strip();
  }

  private static String genericString(Member m) {
    if (m instanceof java.lang.reflect.Executable e) {
      return e.toGenericString();
    }
    return ((java.lang.reflect.Field) m).toGenericString();
  }
}
