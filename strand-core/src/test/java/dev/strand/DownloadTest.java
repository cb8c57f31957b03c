package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Resumable downloads against the testkit's /range/N: cut midway, resumed, changed, complete, a wrong range. */
@ExtendWith(NettyLeakDetectorExtension.class)
class DownloadTest {
  private static final int N = 300_000;
  private static TestServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    client = Client.builder().build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static void assertWhole(Path file) throws Exception {
    byte[] got = Files.readAllBytes(file);
    assertEquals(N, got.length);
    for (int i = 0; i < N; i++) {
      if (got[i] != (byte) (i % 251)) {
        throw new AssertionError("byte " + i + " is " + got[i]);
      }
    }
  }

  /** A file as an earlier attempt left it: its first {@code n} bytes and the sidecar with the ETag. */
  private static Path partial(Path dir, int n) throws Exception {
    Path file = dir.resolve("data.bin");
    byte[] bytes = new byte[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = (byte) (i % 251);
    }
    Files.write(file, bytes);
    Files.writeString(sidecar(file), "\"v1\"\n");
    return file;
  }

  private static Path sidecar(Path file) {
    return file.resolveSibling(file.getFileName() + ".strand-resume");
  }

  @Test
  void aDownloadStalledMidwayAndTimedOutResumesWhereItStopped(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("data.bin");
    Request stalls = Request.builder("GET", server.url("/range/" + N + "?stall=100000"))
        .timeout(Timeout.of(java.time.Duration.ofSeconds(10)).withRead(java.time.Duration.ofMillis(300))).build();
    assertThrows(ReadTimeoutException.class, () -> Download.toFile(client, stalls, file));
    long partial = Files.size(file);
    assertEquals(100_000, partial, "what arrived before the stall is kept");
    assertEquals("\"v1\"", Files.readString(sidecar(file)).strip());

    Download.Result r = Download.toFile(client, Request.get(server.url("/range/" + N)), file);
    assertEquals(new Download.Result(206, N - partial, partial, true), r);
    assertWhole(file);
    assertFalse(Files.exists(sidecar(file)), "the sidecar goes once complete");

    Download.Result again = Download.toFile(client, Request.get(server.url("/range/" + N)), file);
    assertEquals(new Download.Result(416, 0, N, true), again);
    assertWhole(file);
  }

  @Test
  void aDownloadCutMidwayKeepsWhatArrivedAndCompletesOnTheNextCall(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("data.bin");
    assertThrows(HttpException.class,
        () -> Download.toFile(client, Request.get(server.url("/range/" + N + "?cut=100000")), file));
    long partial = Files.size(file); // how much was consumed before the close was noticed: 0 to 100000
    assertTrue(partial <= 100_000, "kept " + partial);
    Download.Result r = Download.toFile(client, Request.get(server.url("/range/" + N)), file);
    assertTrue(r.complete());
    assertEquals(N - partial, r.bytesWritten());
    assertWhole(file);
  }

  @Test
  void aChangedResourceIsRewrittenFromScratch(@TempDir Path dir) throws Exception {
    Path file = partial(dir, 50_000);
    Files.write(file, new byte[] {9, 9, 9}, java.nio.file.StandardOpenOption.APPEND); // would corrupt an append
    Download.Result r = Download.toFile(client, Request.get(server.url("/range/" + N + "?version=2")), file);
    assertEquals(new Download.Result(200, N, 0, true), r);
    assertWhole(file);
  }

  @Test
  void aRangeThatStartsElsewhereIsAProtocolError(@TempDir Path dir) throws Exception {
    Path file = partial(dir, 1000);
    long partial = Files.size(file);
    assertThrows(ProtocolException.class,
        () -> Download.toFile(client, Request.get(server.url("/range/" + N + "?badStart=1")), file));
    assertEquals(partial, Files.size(file), "the file is untouched");
  }

  @Test
  void anErrorStatusLeavesTheFileAlone(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("data.bin");
    Download.Result r = Download.toFile(client, Request.get(server.url("/status/404")), file);
    assertEquals(404, r.status());
    assertFalse(r.complete());
    assertFalse(Files.exists(file));
  }
}
