package dev.strand.internal.proxy;

import io.netty.handler.proxy.ProxyConnectException;
import java.util.List;

/**
 * Why {@link HttpTunnelHandler} could not open a tunnel, worded for the end of "proxy P refused the
 * tunnel to T: ...". {@link #refused} when the proxy answered with a status; {@link #challenges} non-null
 * when the answer was a {@code 407} that a new connection may answer, since the proxy closes this one.
 */
public final class TunnelFailure extends ProxyConnectException {
  private final boolean refused;
  private final transient List<String> challenges;
  private final int rounds;
  private final transient String refusedAnswer;

  TunnelFailure(String message, boolean refused, Throwable cause) {
    this(message, refused, cause, null, 0, null);
  }

  TunnelFailure(String message, boolean refused, Throwable cause, List<String> challenges, int rounds,
      String refusedAnswer) {
    super(message, cause);
    this.refused = refused;
    this.challenges = challenges;
    this.rounds = rounds;
    this.refusedAnswer = refusedAnswer;
  }

  /** The {@code Proxy-Authorization} the challenged {@code CONNECT} carried, or {@code null}. */
  String refusedAnswer() {
    return refusedAnswer;
  }

  /** Whether the proxy answered CONNECT with a status other than 2xx. */
  public boolean refused() {
    return refused;
  }

  /** The challenges of a {@code 407} to answer on a new connection, or {@code null}. */
  public List<String> challenges() {
    return challenges;
  }

  /** The challenges answered so far, counting this one. */
  public int rounds() {
    return rounds;
  }
}
