package dev.strand.hostile;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.testkit.HostilePeer;
import java.time.Duration;

/** Scripts and clients the hostile cases share, and the one way a case is run and checked. */
final class Peers {
  /** Every phase of every case: short, so a silent peer fails a case fast. */
  static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(1));
  /** How long a script keeps a connection open after its answer, waiting for the client to hang up. */
  static final Duration HOLD = Duration.ofSeconds(3);

  private Peers() {}

  /** An HTTP/1.1 client with one connection, so a second request must reuse or replace the first's. */
  static Client http1() {
    return Client.builder().timeout(TIMEOUT).limits(Limits.ofConnections(1)).build();
  }

  static Client http2() {
    return Client.builder().timeout(TIMEOUT).limits(Limits.ofConnections(1)).version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE)
        .build();
  }

  /** Answers the first request with {@code response}, then keeps the connection open until the client closes it. */
  static HostilePeer.Script answer(String response) {
    return c -> {
      c.readHead();
      c.write(response);
      c.awaitClientClose(HOLD);
    };
  }

  /** Answers the first request with {@code response} and closes the connection (FIN). */
  static HostilePeer.Script answerAndClose(String response) {
    return c -> {
      c.readHead();
      c.write(response);
    };
  }

  /**
   * Sends a GET to a peer running {@code script} through a fresh HTTP/1.1 client, checks the outcome,
   * then the pool: emptied after a failure (the connection cannot be trusted), settled after a response.
   */
  static void check(HostilePeer.Script script, Outcome outcome) throws Exception {
    try (HostilePeer peer = new HostilePeer(script); Client client = http1()) {
      check(client, Request.builder("GET", peer.url("/")).build(), outcome);
    }
  }

  static void check(Client client, Request request, Outcome outcome) {
    outcome.check(() -> client.send(request));
    if (outcome instanceof Outcome.Fails) {
      PoolCheck.empty(client);
    } else {
      PoolCheck.settled(client);
    }
  }

  /** A response of {@code status} with a Content-Length body. */
  static String response(String statusLine, String body) {
    return statusLine + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
  }

  static String text(Response r) {
    return r.text();
  }
}
