package dev.strand.internal.websocket;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.WebSocket;
import dev.strand.WebSocketHandshakeException;
import dev.strand.internal.connect.ConnectContext;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.pool.Origin;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Opens WebSockets for the engine. The handshake is an exchange like any other request's, an
 * HTTP/1.1 GET asking to switch to {@code websocket}, on a connection of the origin's upgrade key
 * ({@link Origin#forUpgrade()}: HTTP/1.1 whatever the version policy, and through an HTTP proxy a
 * tunnel), with the same timeouts, events and response parsing. On a 101 this checks the answer and
 * takes the connection out of the pool for a {@link RealWebSocket}, with permessage-deflate if the
 * server chose it; any other answer is a {@link WebSocketHandshakeException}. Keeps the handshakes in
 * progress and the open sockets, so that closing the engine ends them.
 */
public final class WebSocketConnector {
  /**
   * The extensions {@link WebSocketClientCompressionHandler} offers. It would add them to a Netty request
   * object; ours is encoded by the HTTP/1.1 framing, so they are written here, and the handler only reads the answer.
   */
  private static final String OFFERED_EXTENSIONS = "permessage-deflate,deflate-frame,x-webkit-deflate-frame";
  /** RFC 6455 section 4.2.2: what the server appends to our key before hashing it. */
  private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private final ConnectContext engine;
  private final Exchange.Dispatch dispatch;
  private final Set<CompletableFuture<StreamingResponse>> handshakes = ConcurrentHashMap.newKeySet();
  private final Set<RealWebSocket> sockets = ConcurrentHashMap.newKeySet();

  /**
   * @param engine the engine's TLS and state
   * @param dispatch the same engine as its exchanges see it: the pool they wait in
   */
  public WebSocketConnector(ConnectContext engine, Exchange.Dispatch dispatch) {
    this.engine = engine;
    this.dispatch = dispatch;
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
    Origin origin = Origin.of(url).forUpgrade();
    Handshake handshake = new Handshake(request, listener, maxMessageSize);
    CompletableFuture<WebSocket> result = new CompletableFuture<>();
    if (origin.isHttps()) {
      engine.tls().whenHttp1Ready().whenComplete((tls, error) -> {
        if (error != null) {
          result.completeExceptionally(ErrorMapper.tlsSetup(error, request));
        } else {
          send(handshake, origin, result);
        }
      });
    } else {
      send(handshake, origin, result);
    }
    return result;
  }

  /** Aborts every WebSocket, and every handshake still in progress. */
  public void closeAll() {
    for (CompletableFuture<StreamingResponse> h : handshakes) {
      h.cancel(false);
    }
    for (RealWebSocket ws : sockets) {
      ws.abort("the client was closed");
    }
  }

  private void send(Handshake handshake, Origin origin, CompletableFuture<WebSocket> result) {
    Request request = handshake.request;
    Exchange exchange = new Exchange(dispatch, handshake.upgradeRequest, origin, handshake);
    CompletableFuture<StreamingResponse> answer = exchange.future;
    handshake.answer = answer;
    handshakes.add(answer);
    if (engine.isClosed()) { // closed meanwhile: closeAll may have missed this one
      answer.cancel(false);
    }
    answer.whenComplete((response, error) -> {
      handshakes.remove(answer);
      if (error != null) {
        RealWebSocket switched = handshake.socket;
        if (switched != null) { // cancelled as the server switched
          switched.abort();
        }
        result.completeExceptionally(engine.isClosed() ? clientClosed(request)
            : error instanceof HttpException e ? e : ErrorMapper.io(error, request));
      } else if (response.status() != 101) {
        response.close(); // its connection goes back to the pool, or is closed if the body was not read
        result.completeExceptionally(new WebSocketHandshakeException("WebSocket handshake failed: HTTP "
            + response.status() + " " + response.reason() + " (" + handshake.where + ")", request, response.status(),
            response.headers()));
      } else {
        // Still on the event loop, the 101 delivered and its events told, before the bytes behind it (see
        // Exchange.Upgrade): the listener hears onOpen before the caller has the socket, and before any message.
        RealWebSocket ws = handshake.socket;
        ws.start();
        if (!result.complete(ws)) {
          ws.abort(); // cancelled meanwhile
        }
      }
    });
    result.whenComplete((ws, failure) -> {
      if (failure instanceof CancellationException) {
        answer.cancel(false);
      }
    });
    if (dispatch.pool().acquire(origin, exchange, false)) {
      exchange.armPoolTimer();
    }
  }

  /** Closing the client fails a handshake in progress, whether it was connecting or waiting for the 101. */
  private static TransportException clientClosed(Request request) {
    return new TransportException("the client was closed before the WebSocket handshake completed (GET "
        + WebSocketUrls.toWebSocketUrl(request.url()) + ")", request);
  }

  /** One opening handshake: the upgrade request, and what checks the 101 and takes the connection over. */
  private final class Handshake implements Exchange.Upgrade {
    /** As the caller made it. */
    private final Request request;
    /** As it is sent: with the upgrade's fields. */
    private final Request upgradeRequest;
    private final WebSocket.Listener listener;
    private final int maxMessageSize;
    private final List<String> subprotocols;
    private final String expectedAccept;
    private final String where;
    /** The socket, once the server switched. */
    private volatile RealWebSocket socket;
    /** The exchange's future, set before it is sent. */
    private CompletableFuture<StreamingResponse> answer;

    Handshake(Request request, WebSocket.Listener listener, int maxMessageSize) {
      this.request = request;
      this.listener = listener;
      this.maxMessageSize = maxMessageSize;
      this.where = "GET " + WebSocketUrls.toWebSocketUrl(request.url());
      this.subprotocols = request.headers().all("Sec-WebSocket-Protocol");
      byte[] nonce = new byte[16];
      ThreadLocalRandom.current().nextBytes(nonce); // a nonce against caching proxies, not a secret
      String key = Base64.getEncoder().encodeToString(nonce);
      this.expectedAccept = accept(key);
      // No Origin field: this is not a browser.
      Request.Builder b = request.toBuilder()
          .removeHeader("Sec-WebSocket-Protocol")
          .setHeader("Upgrade", "websocket")
          .setHeader("Connection", "Upgrade")
          .setHeader("Sec-WebSocket-Key", key)
          .setHeader("Sec-WebSocket-Version", "13")
          .setHeader("Sec-WebSocket-Extensions", OFFERED_EXTENSIONS);
      if (!subprotocols.isEmpty()) {
        b.setHeader("Sec-WebSocket-Protocol", String.join(", ", subprotocols));
      }
      this.upgradeRequest = b.build();
    }

    /** On the event loop, when the server answered 101. */
    @Override
    public void switched(Channel ch, StreamingResponse response) {
      String subprotocol = check(response);
      ChannelPipeline p = ch.pipeline();
      RealWebSocket ws = new RealWebSocket(ch, response, subprotocol, listener, maxMessageSize);
      WebSocketClientCompressionHandler compression = new WebSocketClientCompressionHandler(maxMessageSize);
      p.addLast("ws-encoder", new WebSocket13FrameEncoder(true))
          .addLast("ws-decoder", frameDecoder(maxMessageSize))
          // Bounds what one compressed frame may inflate to, like the message limit bounds the rest.
          .addLast("ws-compression", compression)
          .addLast("ws", ws);
      try {
        // Puts the chosen extension's coders in its own place, then leaves.
        compression.channelRead(p.context(compression), extensionAnswer(response));
      } catch (Exception e) { // e.g. an extension we did not offer
        p.remove(ws); // the socket never opened: its listener hears nothing
        throw failed(e.getMessage(), e);
      }
      sockets.add(ws);
      engine.loops().held(1); // frames may come at any time: the loops are run for them
      ch.closeFuture().addListener(closed -> {
        sockets.remove(ws);
        engine.loops().held(-1);
      });
      socket = ws;
      if (answer.isCancelled()) { // else a cancel from now on finds the socket (send)
        ws.abort();
      }
    }

    /** Checks the 101 as RFC 6455 section 4.1 asks; returns the subprotocol the server chose, or {@code null}. */
    private String check(StreamingResponse response) {
      String upgrade = response.headers().first("Upgrade");
      if (upgrade == null || !upgrade.strip().equalsIgnoreCase("websocket")) {
        throw failed("the 101 response does not upgrade to websocket (Upgrade: " + upgrade + ")", null);
      }
      String connection = String.join(", ", response.headers().all("Connection"));
      if (!connection.toLowerCase(Locale.ROOT).contains("upgrade")) {
        throw failed("the 101 response has no Connection: Upgrade (Connection: " + connection + ")", null);
      }
      String accept = response.headers().first("Sec-WebSocket-Accept");
      if (!expectedAccept.equals(accept)) {
        throw failed("Sec-WebSocket-Accept does not answer our Sec-WebSocket-Key: got " + accept + ", expected "
            + expectedAccept, null);
      }
      String chosen = response.headers().first("Sec-WebSocket-Protocol");
      if (chosen == null || chosen.isBlank()) {
        return null;
      }
      boolean offered = subprotocols.stream().flatMap(v -> List.of(v.split(",")).stream())
          .anyMatch(offer -> offer.strip().equals(chosen.strip()));
      if (!offered) {
        throw failed("the server chose the subprotocol '" + chosen + "', which was not offered ("
            + (subprotocols.isEmpty() ? "none" : String.join(", ", subprotocols)) + ")", null);
      }
      return chosen.strip();
    }

    private ProtocolException failed(String why, Throwable cause) {
      return new ProtocolException("WebSocket handshake failed: " + why + " (" + where + ")", request, cause);
    }
  }

  /**
   * The frame decoder. Netty's handshaker would add one that sends its own Close on a protocol error,
   * but from where it sits, before the frame encoder: the frame fails to go out and the connection drops
   * unannounced (and after an invalid Close it sends none). This one only reports the error;
   * {@link RealWebSocket} sends the Close, as for its own errors. Frames are limited by the message limit too.
   */
  static WebSocket13FrameDecoder frameDecoder(int maxMessageSize) {
    return new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder().expectMaskedFrames(false)
        .allowMaskMismatch(false).allowExtensions(true).maxFramePayloadLength(maxMessageSize)
        .closeOnProtocolViolation(false).build());
  }

  /** What the compression handler reads of the 101: whether it is an upgrade, and the extension chosen. */
  private static DefaultHttpResponse extensionAnswer(StreamingResponse response) {
    HttpHeaders fields = new DefaultHttpHeaders();
    for (String name : List.of("Upgrade", "Connection", "Sec-WebSocket-Extensions")) {
      for (String value : response.headers().all(name)) {
        fields.add(name, value);
      }
    }
    return new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.SWITCHING_PROTOCOLS, fields);
  }

  /** The Sec-WebSocket-Accept that answers {@code key}. */
  static String accept(String key) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-1", e);
    }
  }
}
