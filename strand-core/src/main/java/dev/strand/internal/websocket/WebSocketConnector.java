package dev.strand.internal.websocket;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.WebSocket;
import dev.strand.WebSocketHandshakeException;
import dev.strand.internal.connect.ConnectContext;
import dev.strand.internal.connect.Dialer;
import dev.strand.internal.connect.TlsErrorTranslator;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.http1.ResponseDecoder;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.tls.TlsContext;
import dev.strand.internal.tls.TlsErrors;
import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens WebSockets for a {@link NettyEngine}: each on a dedicated connection, never a pooled one
 * (TLS offers only {@code http/1.1} through ALPN) and through a proxy always a tunnel, with Netty's
 * version-13 client handshaker and permessage-deflate. Once the server has answered 101, the
 * connection belongs to a {@link RealWebSocket}. Keeps every WebSocket channel so that closing the engine aborts them.
 */
public final class WebSocketConnector {
  private final ConnectContext engine;
  private final int maxHeaderSize;
  private final Set<Channel> channels = ConcurrentHashMap.newKeySet();

  public WebSocketConnector(ConnectContext engine, int maxHeaderSize) {
    this.engine = engine;
    this.maxHeaderSize = maxHeaderSize;
  }

  /** See {@link dev.strand.spi.Transport#websocket}. */
  public CompletableFuture<WebSocket> open(Request request, WebSocket.Listener listener, int maxMessageSize) {
    URI url = request.url();
    if (url.getScheme() == null || url.getHost() == null) {
      return CompletableFuture.failedFuture(
          new ProtocolException("the transport needs an absolute URL, got " + url, request));
    }
    if (!request.method().equals("GET") || request.body() != null) {
      return CompletableFuture.failedFuture(new ProtocolException(
          "a WebSocket handshake is a GET request without a body, not " + request, request));
    }
    Origin origin = Origin.of(url);
    CompletableFuture<WebSocket> result = new CompletableFuture<>();
    if (origin.isHttps()) {
      engine.tls().whenHttp1Ready().whenComplete((tls, error) -> {
        if (error != null) {
          result.completeExceptionally(ErrorMapper.tlsSetup(error, request));
        } else {
          connect(request, origin, tls, listener, maxMessageSize, result);
        }
      });
    } else {
      connect(request, origin, null, listener, maxMessageSize, result);
    }
    return result;
  }

  /** Aborts every WebSocket, and drops every connection still in its handshake. */
  public void closeAll() {
    for (Channel ch : channels) {
      RealWebSocket ws = ch.pipeline().get(RealWebSocket.class);
      if (ws != null) {
        ws.abort("the client was closed");
      } else {
        ch.close();
      }
    }
  }

  private void connect(Request request, Origin origin, TlsContext tls, WebSocket.Listener listener,
      int maxMessageSize, CompletableFuture<WebSocket> result) {
    Duration limit = request.timeout() != null ? request.timeout().connect() : Timeout.DEFAULT.connect();
    // Through an HTTP proxy always a CONNECT tunnel (as for h2c): forwarding proxies need not relay an upgrade.
    Dialer.dial(engine, origin, engine.proxyFor(origin), true, limit, request, (ch, error) -> {
      if (error != null) {
        result.completeExceptionally(engine.isClosed() ? clientClosed(request) : ErrorMapper.connect(error, request, origin));
        return;
      }
      channels.add(ch);
      ch.closeFuture().addListener(closed -> channels.remove(ch));
      if (engine.isClosed()) { // closed while connecting: closeAll may have missed this one
        ch.close();
        result.completeExceptionally(clientClosed(request));
        return;
      }
      result.whenComplete((ws, failure) -> {
        if (failure instanceof CancellationException) {
          ch.close();
        }
      });
      if (tls != null) {
        ch.pipeline().addLast("tls", tls.newHandler(ch.alloc(), origin.host(), origin.port(), limit))
            .addLast("tls-errors", new TlsErrorTranslator(origin.socketHost(), origin.port(), engine.tls().tls));
      }
      ch.pipeline()
          .addLast("http-codec", new HttpClientCodec(new HttpDecoderConfig().setMaxHeaderSize(maxHeaderSize),
              HttpClientCodec.DEFAULT_PARSE_HTTP_AFTER_CONNECT_REQUEST, HttpClientCodec.DEFAULT_FAIL_ON_MISSING_RESPONSE))
          // Bounds what one compressed frame may inflate to, like the message limit bounds the rest.
          .addLast("ws-compression", new WebSocketClientCompressionHandler(maxMessageSize))
          .addLast("ws-handshake", new Handshake(request, origin, listener, maxMessageSize, result));
      ch.read();
    });
  }

  /** Closing the client fails a handshake in progress, whether it was connecting or waiting for the 101. */
  private static TransportException clientClosed(Request request) {
    return new TransportException("the client was closed before the WebSocket handshake completed (GET "
        + WebSocketUrls.toWebSocketUrl(request.url()) + ")", request);
  }

  /** Sends the upgrade request and waits for its answer; replaced by a {@link RealWebSocket} on 101. */
  private final class Handshake extends ChannelInboundHandlerAdapter {
    private final Request request;
    private final Origin origin;
    private final WebSocket.Listener listener;
    private final int maxMessageSize;
    private final CompletableFuture<WebSocket> result;
    private final WebSocketClientHandshaker handshaker;
    private final String where;
    private ScheduledFuture<?> readTimer;
    private boolean done;

    Handshake(Request request, Origin origin, WebSocket.Listener listener, int maxMessageSize,
        CompletableFuture<WebSocket> result) {
      this.request = request;
      this.origin = origin;
      this.listener = listener;
      this.maxMessageSize = maxMessageSize;
      this.result = result;
      URI wsUrl = WebSocketUrls.toWebSocketUrl(request.url());
      this.where = "GET " + wsUrl;
      HttpHeaders headers = new DefaultHttpHeaders();
      request.headers().forEach((name, value) -> {
        if (!name.equalsIgnoreCase("Sec-WebSocket-Protocol")) {
          headers.add(name, value);
        }
      });
      List<String> protocols = request.headers().all("Sec-WebSocket-Protocol");
      String subprotocols = protocols.isEmpty() ? null : String.join(", ", protocols);
      // Frames are limited by the message limit too; no Origin header (this is not a browser).
      this.handshaker = WebSocketClientHandshakerFactory.newHandshaker(wsUrl, WebSocketVersion.V13, subprotocols,
          true, headers, maxMessageSize, true, false, -1, false, false);
    }

    /** Added to a connected channel ({@link Dialer}): the upgrade request goes out at once. */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      // Over TLS the request waits in the TLS handler until the TLS handshake is done.
      handshaker.handshake(ctx.channel()).addListener(f -> {
        if (!f.isSuccess()) {
          fail(ctx, failure(f.cause()));
          return;
        }
        Duration read = request.timeout() == null ? null : request.timeout().read();
        if (read != null && !done) {
          readTimer = ctx.executor().schedule(() -> fail(ctx, ErrorMapper.readTimeout(request, read.toNanos())),
              read.toNanos(), TimeUnit.NANOSECONDS);
        }
      });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (!done && msg instanceof HttpResponse r) {
          if (r.decoderResult().isFailure()) {
            fail(ctx, ErrorMapper.malformed(r.decoderResult().cause(), request, maxHeaderSize, false));
          } else if (r.status().code() != 101) {
            int code = r.status().code();
            fail(ctx, new WebSocketHandshakeException("WebSocket handshake failed: HTTP " + code + " "
                + r.status().reasonPhrase() + " (" + where + ")", request, code, ResponseDecoder.headers(r)));
          } else {
            upgrade(ctx, r);
          }
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (!done) {
        ctx.read(); // the response head may come in several reads
      }
      ctx.fireChannelReadComplete();
    }

    private void upgrade(ChannelHandlerContext ctx, HttpResponse r) {
      Channel ch = ctx.channel();
      try {
        // Checks Sec-WebSocket-Accept and the subprotocol, and swaps the HTTP codec for the frame codec.
        handshaker.finishHandshake(ch, new DefaultFullHttpResponse(r.protocolVersion(), r.status(),
            Unpooled.EMPTY_BUFFER, r.headers(), EmptyHttpHeaders.INSTANCE));
      } catch (RuntimeException e) {
        // Netty words a wrong Sec-WebSocket-Accept "Invalid challenge. Actual: X. Expected: Y".
        String why = String.valueOf(e.getMessage()).startsWith("Invalid challenge")
            ? "Sec-WebSocket-Accept does not answer our Sec-WebSocket-Key: " + e.getMessage() : e.getMessage();
        fail(ctx, new ProtocolException("WebSocket handshake failed: " + why + " (" + where + ")", request, e));
        return;
      }
      // The handshaker's decoder sends its own Close on a protocol error, but from where it sits, before the frame
      // encoder: the frame fails to go out and the connection drops unannounced (and after an invalid Close it
      // sends none). Ours only reports the error; RealWebSocket sends the Close, as for its own errors.
      ch.pipeline().replace(WebSocketFrameDecoder.class, "ws-decoder", new WebSocket13FrameDecoder(
          WebSocketDecoderConfig.newBuilder().expectMaskedFrames(false).allowMaskMismatch(false).allowExtensions(true)
              .maxFramePayloadLength(maxMessageSize).closeOnProtocolViolation(false).build()));
      done = true;
      cancelTimer();
      StreamingResponse head = StreamingResponses.of(request, 101, r.status().reasonPhrase(),
          ResponseDecoder.headers(r), Version.HTTP_1_1, ResponseBody.of(new byte[0]));
      String subprotocol = handshaker.actualSubprotocol();
      RealWebSocket ws = new RealWebSocket(ch, head, subprotocol == null || subprotocol.isEmpty() ? null : subprotocol,
          listener, maxMessageSize);
      ctx.pipeline().replace(this, "ws", ws);
      ws.start();
      if (!result.complete(ws)) {
        ws.abort(); // cancelled meanwhile
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
        fail(ctx, failure(e.cause()));
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(ctx, failure(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      fail(ctx, engine.isClosed() ? clientClosed(request)
          : new ProtocolException("the server closed the connection before the WebSocket handshake completed ("
              + where + ")", request));
      ctx.fireChannelInactive();
    }

    private HttpException failure(Throwable cause) {
      if (cause instanceof HttpException e) {
        return e;
      }
      if (TlsErrors.isTlsFailure(cause)) {
        return TlsErrors.translate(cause, origin.socketHost(), origin.port(), engine.tls().tls, request);
      }
      if (cause instanceof CodecException) { // e.g. an extension the server should not have chosen
        return new ProtocolException("WebSocket handshake failed: " + cause.getMessage() + " (" + where + ")",
            request, cause);
      }
      return ErrorMapper.io(cause, request);
    }

    private void fail(ChannelHandlerContext ctx, HttpException error) {
      if (done) {
        return;
      }
      done = true;
      cancelTimer();
      result.completeExceptionally(error);
      ctx.close();
    }

    private void cancelTimer() {
      if (readTimer != null) {
        readTimer.cancel(false);
      }
    }
  }
}
