package dev.strand.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streamed upload's end is reported by its writer thread, often just after the server's complete
 * answer has been read: the connection must still be reused (it lost it 5-20 % of the time). An answer
 * given while the upload still runs must not leave the connection to the next request.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class UploadEndRaceTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void streamedUploadsKeepTheirConnection() {
    try (Client client = Client.create()) {
      for (int i = 0; i < 300; i++) {
        InputStream in = new ByteArrayInputStream(new byte[] {(byte) i});
        Request r = Request.builder("POST", server.url("/echo")).body(RequestBody.ofInputStream(in, 1, "application/octet-stream")).build();
        assertEquals(200, client.send(r).status());
      }
      assertEquals(1, client.stats().connectionsOpened(), client.stats().toString());
    }
  }

  @Test
  void anAnswerBeforeTheUploadEndsGivesUpTheConnection() throws Exception {
    // Answers each request at once, before reading its body, and keeps the connection open (draining it):
    // the upload goes on after the complete answer, so that connection must not carry the next request.
    try (HostilePeer peer = new HostilePeer(c -> {
      c.readHead();
      c.write("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n");
      c.in().transferTo(OutputStream.nullOutputStream());
    }); Client client = Client.create()) {
      InputStream slow = new InputStream() {
        private int left = 2000;

        @Override
        public int read() {
          return left-- > 0 ? 'x' : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
          if (left <= 0) {
            return -1;
          }
          left--;
          try {
            Thread.sleep(1); // a slow producer: the answer comes long before the end
          } catch (InterruptedException e) {
            throw new java.io.InterruptedIOException();
          }
          b[off] = 'x';
          return 1;
        }
      };
      Request upload = Request.builder("POST", peer.url("/upload"))
          .body(RequestBody.ofInputStream(slow, "application/octet-stream")).build();
      assertEquals(413, client.send(upload).status());
      assertEquals(413, client.get(peer.url("/next")).status(), "the next request is answered on a connection of its own");
      assertEquals(2, peer.accepted(), "the early-answered connection was not reused");
    }
  }
}
