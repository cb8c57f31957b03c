package dev.strand.internal.proxy;

import dev.strand.ProxyAuthenticator;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@code 407} to a request that an HTTP proxy forwards (absolute form), answered once with the
 * proxy's {@link ProxyAuthenticator} by sending the request again with its answer; without one, or
 * with a request that carried its own {@code Proxy-Authorization} or whose body cannot be sent twice,
 * the {@code 407} is the response, as with curl.
 */
public final class ForwardChallenge {
  private ForwardChallenge() {}

  /**
   * @param target the absolute-form request target the proxy was sent, which Digest signs
   * @param resend sends a request again, on the same route
   */
  public static CompletableFuture<StreamingResponse> answer(ProxyServer proxy, Request request, String target,
      StreamingResponse response, Function<Request, CompletableFuture<StreamingResponse>> resend) {
    ProxyAuthenticator auth = proxy.auth();
    if (response.status() != 407 || auth == null || request.headers().first("Proxy-Authorization") != null
        || (request.body() != null && !request.body().isRepeatable())) {
      return CompletableFuture.completedFuture(response);
    }
    List<String> challenges = response.headers().all("Proxy-Authenticate");
    // Off the event loop that completed the response: the authenticator may block (a Kerberos ticket).
    return CompletableFuture.supplyAsync(() -> auth.authorize(proxy.uri(), request.method(), target, challenges),
            r -> Thread.ofVirtual().name("strand-proxy-auth").start(r))
        .handle((answer, error) -> {
          if (error != null || answer == null) {
            return CompletableFuture.completedFuture(response);
          }
          response.close();
          return resend.apply(request.toBuilder().setHeader("Proxy-Authorization", answer).build());
        })
        .thenCompose(f -> f);
  }
}
