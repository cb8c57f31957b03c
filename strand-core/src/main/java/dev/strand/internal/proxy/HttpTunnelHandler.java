package dev.strand.internal.proxy;

import dev.strand.ProxyAuthenticator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.proxy.ProxyHandler;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Opens a {@code CONNECT} tunnel through an HTTP proxy, answering its {@code 407}s with the proxy's
 * {@link ProxyAuthenticator}: on the same connection while the proxy keeps it open, else by failing
 * with a {@link TunnelFailure} that carries the challenges, for the dialler to answer on a new one
 * (Digest and Negotiate answers are only good for the next request). Netty's {@code HttpProxyHandler}
 * sends one request and takes any status other than 200 as final; this one keeps Netty's
 * {@link ProxyHandler} for the rest (holding writes until the tunnel is up, removing its codec then).
 *
 * <p>A response the codec could not parse fails at once: Netty's own handler took garbage for a status
 * "999 Unknown", and waited out a head too large for the decoder until the connect timeout.
 */
public final class HttpTunnelHandler extends ProxyHandler {
  /** Challenges answered per tunnel, across reconnections: enough for Digest's stale nonce, not a loop. */
  public static final int MAX_ROUNDS = 4;
  private static final Executor OFF_LOOP = r -> Thread.ofVirtual().name("strand-proxy-auth").start(r);

  private final ProxyServer proxy;
  private final URI proxyUri;
  private final String target;
  private final ProxyAuthenticator auth;
  private final int maxHeaderSize;
  private HttpClientCodec codec;
  private HttpResponse head;
  private int rounds;
  private String sent;

  /**
   * A handler for one connection to the proxy; a {@link ReplayAuth} authenticator brings the answer to
   * send with the first {@code CONNECT} (to a challenge on a connection the proxy closed) and the rounds
   * answered before, else the authenticator is asked preemptively.
   *
   * @param target the host and port asked for, by name: the proxy resolves it
   */
  public HttpTunnelHandler(SocketAddress proxyAddress, ProxyServer proxy, String targetHost, int targetPort,
      int maxHeaderSize) {
    super(proxyAddress);
    this.proxy = proxy;
    this.proxyUri = proxy.uri();
    this.target = target(targetHost, targetPort);
    ProxyAuthenticator a = proxy.auth();
    if (a instanceof ReplayAuth r) {
      this.auth = r.original();
      this.sent = r.answer();
      this.rounds = r.rounds();
    } else {
      this.auth = a;
    }
    this.maxHeaderSize = maxHeaderSize;
  }

  /** The authority-form request target: {@code host:port}, an IPv6 literal in brackets. */
  static String target(String host, int port) {
    return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public String protocol() {
    return proxy.secure() ? "https" : "http";
  }

  @Override
  public String authScheme() {
    return auth == null ? "none" : auth.toString();
  }

  @Override
  protected void addCodec(ChannelHandlerContext ctx) {
    codec = new HttpClientCodec(4096, maxHeaderSize, 8192);
    ctx.pipeline().addBefore(ctx.name(), null, codec);
  }

  @Override
  protected void removeEncoder(ChannelHandlerContext ctx) {
    codec.removeOutboundHandler();
    // Out of the pipeline, not just emptied: a WebSocket handshaker in the tunnel looks its own codec up by type.
    ctx.pipeline().remove(codec);
  }

  @Override
  protected void removeDecoder(ChannelHandlerContext ctx) {
    codec.removeInboundHandler();
  }

  @Override
  protected Object newInitialMessage(ChannelHandlerContext ctx) {
    if (sent == null && auth != null) {
      sent = auth.authorize(proxyUri, "CONNECT", target, List.of()); // preemptive: must be quick
    }
    return connect(sent);
  }

  private FullHttpRequest connect(String authorization) {
    FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.CONNECT, target,
        io.netty.buffer.Unpooled.EMPTY_BUFFER, false);
    req.headers().set(HttpHeaderNames.HOST, target);
    if (authorization != null) {
      req.headers().set(HttpHeaderNames.PROXY_AUTHORIZATION, authorization);
    }
    return req;
  }

  @Override
  protected boolean handleResponse(ChannelHandlerContext ctx, Object msg) throws TunnelFailure {
    if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
      Throwable cause = o.decoderResult().cause();
      throw new TunnelFailure(cause instanceof TooLongFrameException
          ? "its response head is too large (" + cause.getMessage() + ")"
          : "it answered CONNECT with something that is not an HTTP response (" + cause.getMessage() + ")", false, cause);
    }
    if (msg instanceof HttpResponse r) {
      head = r;
    }
    if (!(msg instanceof LastHttpContent) || head == null) {
      return false;
    }
    HttpResponse r = head;
    head = null;
    int status = r.status().code();
    if (status >= 200 && status < 300) {
      return true;
    }
    String statusLine = r.status().code() + " " + r.status().reasonPhrase();
    if (status != 407 || auth == null) {
      throw new TunnelFailure(statusLine, true, null);
    }
    if (rounds >= MAX_ROUNDS) {
      throw new TunnelFailure(statusLine + " (still, after " + rounds + " answered challenges)", true, null);
    }
    List<String> challenges = List.copyOf(r.headers().getAll(HttpHeaderNames.PROXY_AUTHENTICATE));
    rounds++;
    // A body without a length ends only with the connection: the answer cannot go on this one either.
    boolean closing = !HttpUtil.isKeepAlive(r)
        || (!HttpUtil.isContentLengthSet(r) && !HttpUtil.isTransferEncodingChunked(r));
    if (closing) {
      throw new TunnelFailure(statusLine, true, null, challenges, rounds, sent);
    }
    // The authenticator may block (a Kerberos ticket request): not on the event loop.
    CompletableFuture.supplyAsync(() -> auth.authorize(proxyUri, "CONNECT", target, challenges), OFF_LOOP)
        .whenComplete((answer, error) -> ctx.executor().execute(() -> answered(ctx, statusLine, answer, error)));
    return false;
  }

  private void answered(ChannelHandlerContext ctx, String statusLine, String answer, Throwable error) {
    if (connectFuture().isDone()) {
      return; // the proxy closed meanwhile, or the deadline passed
    }
    TunnelFailure failure = error != null
        ? new TunnelFailure(statusLine + " (the authenticator failed: " + error + ")", true, error)
        : answer == null || answer.equals(sent) ? new TunnelFailure(statusLine, true, null) : null;
    if (failure != null) {
      try {
        exceptionCaught(ctx, failure); // fails the tunnel and closes the channel
      } catch (Exception e) {
        ctx.close(); // ProxyHandler declares it, but only fails a promise and closes
      }
      return;
    }
    sent = answer;
    sendToProxyServer(connect(answer));
  }

  /**
   * {@code proxy} set up to answer, on a new connection, the {@code 407} that {@code failure} reports
   * on a connection the proxy closed: worked out off the event loop; {@code null} when the authenticator
   * has no answer, or only the one just refused.
   */
  public static CompletableFuture<ProxyServer> answerOnNewConnection(ProxyServer proxy, String targetHost,
      int targetPort, TunnelFailure failure) {
    ProxyAuthenticator a = proxy.auth();
    ProxyAuthenticator auth = a instanceof ReplayAuth r ? r.original() : a;
    String t = target(targetHost, targetPort);
    return CompletableFuture.supplyAsync(() -> {
      String answer = auth == null ? null : auth.authorize(proxy.uri(), "CONNECT", t, failure.challenges());
      return answer == null || answer.equals(failure.refusedAnswer()) ? null
          : proxy.withAuthenticator(new ReplayAuth(auth, answer, failure.rounds()));
    }, OFF_LOOP);
  }
}
