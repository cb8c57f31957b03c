package dev.strand.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.CallTimeoutException;
import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.InvalidUrlException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.TransportException;
import java.io.IOException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;

/** Each Strand failure becomes the IOException Spring's JDK-based factory would give, with the Strand one as cause. */
class FailuresTest {
  private static final Request REQUEST = Request.get("http://127.0.0.1:1/");

  private static void assertMapped(Class<? extends IOException> expected, HttpException strand) {
    IOException io = Failures.toIOException(strand);
    assertEquals(expected, io.getClass());
    assertSame(strand, io.getCause());
    assertEquals(strand.getMessage(), io.getMessage());
  }

  @Test
  void timeoutsAreTheJdkClientsTimeouts() {
    assertMapped(HttpConnectTimeoutException.class, new ConnectTimeoutException("connect timed out", REQUEST));
    assertMapped(HttpTimeoutException.class, new ReadTimeoutException("read timed out", REQUEST));
    assertMapped(HttpTimeoutException.class, new CallTimeoutException("call timed out", REQUEST));
  }

  @Test
  void otherTransportFailures() {
    assertMapped(java.net.ConnectException.class, new ConnectException("refused", REQUEST));
    assertMapped(java.net.ProtocolException.class, new ProtocolException("bad status line", REQUEST));
    assertMapped(IOException.class, new TransportException("reset", REQUEST));
  }

  @Test
  void anInvalidUrlStaysUnchecked() {
    InvalidUrlException e = new InvalidUrlException("bad port", "http://h:99999/");
    assertSame(e, assertThrows(InvalidUrlException.class, () -> Failures.toIOException(e)));
    assertSame(e, Failures.map(e));
  }
}
