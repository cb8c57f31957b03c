package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What each wire failure says about sending its request again: the two properties retry policies decide on. */
class TransportExceptionRetryTest {
  private static final Request REQUEST = Request.get("http://127.0.0.1:1/");

  private record Expected(TransportException failure, boolean mayHaveReachedServer, boolean retryable) {}

  @Test
  void eachFailureSaysWhetherTheRequestMayHaveArrivedAndWhetherTryingAgainCouldHelp() {
    List<Expected> table = List.of(
        new Expected(new TransportException("reset", REQUEST), true, true),
        new Expected(new ReadTimeoutException("read", REQUEST), true, true),
        new Expected(new WriteTimeoutException("write", REQUEST), true, true),
        new Expected(new ConnectException("refused", REQUEST), false, true),
        new Expected(new ConnectTimeoutException("connect", REQUEST), false, true),
        new Expected(new PoolTimeoutException("pool", REQUEST), false, false),
        new Expected(new CallTimeoutException("call", REQUEST), true, false),
        new Expected(new ProtocolException("malformed", REQUEST), true, false),
        new Expected(new WebSocketHandshakeException("no 101", REQUEST, 200, Headers.EMPTY), true, false),
        new Expected(new TlsException(TlsException.Reason.UNKNOWN_CA, "untrusted", REQUEST, null), true, false));
    for (Expected e : table) {
      String name = e.failure().getClass().getSimpleName();
      assertEquals(e.mayHaveReachedServer(), e.failure().mayHaveReachedServer(), name + ".mayHaveReachedServer()");
      assertEquals(e.retryable(), e.failure().isRetryable(), name + ".isRetryable()");
    }
  }
}
