package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The blocking API on virtual threads never pins a carrier while it waits: JFR's
 * {@code jdk.VirtualThreadPinned} is recorded over calls that park mid-response (a gzip body whose
 * second half comes later, read through the decoding body; a dripping body; a plain GET), more
 * virtual threads than carriers. On JDK 21-23 a monitor held across a park pins, so this is what
 * catches a {@code synchronized} around a blocking read; from JDK 24 monitors no longer pin and it
 * still catches the other causes (a park under a native frame or a class initialiser).
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class VirtualThreadPinningTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final int CALLS = 16;

  @Test
  void blockingCallsOnVirtualThreadsDoNotPinTheirCarriers() throws Exception {
    byte[] plain = "a body that arrives in two halves, gzip-encoded; ".repeat(200).getBytes(StandardCharsets.UTF_8);
    Path jfr = Files.createTempFile("strand-pinning", ".jfr");
    try (SlowGzipServer gzip = new SlowGzipServer(gzip(plain));
        Client client = Client.builder().timeout(Timeout.of(Duration.ofSeconds(10))).build();
        Recording recording = new Recording()) {
      recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
          calls.add(threads.submit(() -> {
            try (StreamingResponse r = client.stream(Request.get(gzip.url()))) {
              assertArrayEquals(plain, r.body().readAllBytes());
            }
            assertEquals(200, client.get(server.url("/drip?bytes=4&interval=20")).status());
            assertEquals(200, client.get(server.url("/small")).status());
            return null;
          }));
        }
        for (Future<?> call : calls) {
          call.get();
        }
      }
      recording.stop();
      recording.dump(jfr);
      List<String> pinned = new ArrayList<>();
      for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
        if (e.getStackTrace() != null && e.getStackTrace().getFrames().stream()
            .anyMatch(f -> f.getMethod().getType().getName().startsWith("dev.strand."))) {
          pinned.add(describe(e));
        }
      }
      assertEquals(List.of(), pinned, "virtual threads pinned while parked in Strand's code");
    } finally {
      Files.deleteIfExists(jfr);
    }
  }

  private static String describe(RecordedEvent e) {
    StringBuilder sb = new StringBuilder(e.getDuration().toString());
    for (RecordedFrame f : e.getStackTrace().getFrames().subList(0, Math.min(12, e.getStackTrace().getFrames().size()))) {
      sb.append("\n  at ").append(f.getMethod().getType().getName()).append('.').append(f.getMethod().getName());
    }
    return sb.toString();
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  /** Answers every request with the gzip body in two halves, 30 ms apart, so the reader parks mid-body. */
  private static final class SlowGzipServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final Thread acceptor;

    SlowGzipServer(byte[] body) throws IOException {
      acceptor = Thread.ofPlatform().daemon().start(() -> {
        while (!socket.isClosed()) {
          try {
            Socket s = socket.accept();
            Thread.ofPlatform().daemon().start(() -> answer(s, body));
          } catch (IOException closed) {
            return;
          }
        }
      });
    }

    private static void answer(Socket s, byte[] body) {
      try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b < 0) {
            return;
          }
          head.write(b);
        }
        out.write(("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + body.length
            + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(Arrays.copyOf(body, body.length / 2));
        out.flush();
        Thread.sleep(30);
        out.write(body, body.length / 2, body.length - body.length / 2);
        out.flush();
      } catch (IOException | InterruptedException ignored) {
        // the client went away: nothing to answer
      }
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/gzip";
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
