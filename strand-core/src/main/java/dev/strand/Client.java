package dev.strand;

import dev.strand.internal.client.ClientConfig;
import dev.strand.internal.client.CallerRuns;
import dev.strand.internal.client.ClientEngine;
import dev.strand.internal.loop.CallerDrivenLoop;
import dev.strand.internal.websocket.WebSocketUrls;
import dev.strand.spi.Transport;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * An HTTP client: build one, share it, close it when done. Thread-safe.
 *
 * <p>Blocking and asynchronous calls are twins of one implementation: {@link #async()} offers every
 * call of this class returning a future, and {@link #send} waits for {@link AsyncClient#send}. Blocking
 * calls are cheap on virtual threads.
 *
 * {@snippet :
 * try (Client client = Client.builder().baseUrl("http://127.0.0.1:8080").build()) {
 *   Response r = client.get("/small");                            // blocking
 *   CompletableFuture<Response> f = client.async().get("/small"); // the same, as a future
 * }
 * }
 *
 * <p>Defaults: connect, read, write and pool timeouts of 5 s ({@link Timeout#DEFAULT}); at most
 * 100 connections ({@link Limits#DEFAULT}); redirects not followed; cookies kept per client;
 * {@code Accept-Encoding: gzip, deflate} with transparent decompression; {@code User-Agent: strand/VERSION};
 * HTTPS verified against the system trust store ({@link Tls#system()}); HTTP/2 preferred over TLS and
 * HTTP/1.1 otherwise ({@link VersionPolicy#HTTP_2}; {@code .version(VersionPolicy.HTTP_1_1)} opts out of HTTP/2).
 */
public final class Client implements AutoCloseable {
  /**
   * The default limit of a buffered body, 64 MiB: a buffered response is held whole in the heap, often
   * twice while it becomes text, so a small compressed body that inflates without bound must fail
   * rather than take the process down; 64 MiB read and decoded still fits a 256 MiB heap. Bodies
   * larger than that belong in {@link #stream}.
   */
  public static final long DEFAULT_MAX_BODY_SIZE = 64L * 1024 * 1024;

  private final ClientEngine engine;
  private final AsyncClient async;
  private final int maxEventSize;

  private Client(ClientEngine engine, int maxEventSize) {
    this.engine = engine;
    this.async = new AsyncClient(this);
    this.maxEventSize = maxEventSize;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A client with every default. */
  public static Client create() {
    return builder().build();
  }

  /**
   * Sends {@code request} and reads the whole response body, blocking the calling thread.
   *
   * @throws HttpException on failure; never wrapped in {@code ExecutionException}
   */
  public Response send(Request request) {
    if (!engine.hasInterceptors()) {
      // Runs the connection's event loop here while waiting, when that loop is idle and (on a virtual thread) a
      // carrier is to spare: no other thread wakes.
      return CallerDrivenLoop.callAndWait(() -> sendAsync(request), f -> Futures.await(f, request));
    }
    CallerRuns caller = new CallerRuns();
    return Futures.await(engine.send(request, caller), request, caller);
  }

  /** The async twin of {@link #send}, public as {@link AsyncClient#send}. */
  CompletableFuture<Response> sendAsync(Request request) {
    return engine.send(request);
  }

  /** Sends {@code request} and returns once the response head arrives; the body streams. Close it. */
  public StreamingResponse stream(Request request) {
    if (!engine.hasInterceptors()) {
      return CallerDrivenLoop.callAndWait(() -> streamAsync(request), f -> Futures.await(f, request));
    }
    CallerRuns caller = new CallerRuns();
    return Futures.await(engine.stream(request, caller), request, caller);
  }

  /** The async twin of {@link #stream}, public as {@link AsyncClient#stream}. */
  CompletableFuture<StreamingResponse> streamAsync(Request request) {
    return engine.stream(request);
  }

  /**
   * Opens a stream of server-sent events: a GET of {@code url} with {@code Accept: text/event-stream}.
   * See {@link #events(Request)}.
   */
  public EventStream events(String url) {
    return events(Request.get(url));
  }

  /**
   * Sends {@code request} (with {@code Accept: text/event-stream} and {@code Cache-Control: no-cache}
   * unless it sets them; its other headers, {@code Last-Event-ID} included, as they are) and returns once
   * the response head has arrived and proved to be an event stream. Close the stream.
   *
   * @throws HttpStatusException for a 4xx or 5xx response (carrying its body when small)
   * @throws ProtocolException for any other response but a 2xx {@code text/event-stream}, or a 204
   *     (which gives an empty stream)
   * @see EventStream
   */
  public EventStream events(Request request) {
    return Futures.await(async.events(request), request);
  }

  /**
   * As {@link #events(Request)}, and the stream reconnects by itself when its connection ends or breaks,
   * resuming with {@code Last-Event-ID}, as a browser's {@code EventSource} does; see {@link EventStream}.
   *
   * {@snippet :
   * try (EventStream events = client.events(Request.get(url), EventStream.Reconnect.defaults())) {
   *   for (ServerSentEvent e : events) {   // across reconnections, until a 204 or close()
   *     handle(e);
   *   }
   * }
   * }
   */
  public EventStream events(Request request, EventStream.Reconnect reconnect) {
    return Futures.await(async.events(request, reconnect), request);
  }

  /** The async twin of {@link #events(Request)}: the future completes once the head has arrived and passed. */
  CompletableFuture<EventStream> eventsAsync(Request request) {
    return engine.events(request, r -> EventStream.of(r, maxEventSize), EventStream::close);
  }

  /** The async twin of {@link #events(Request, EventStream.Reconnect)}. */
  CompletableFuture<EventStream> eventsAsync(Request request, EventStream.Reconnect reconnect) {
    Objects.requireNonNull(reconnect, "reconnect");
    return engine.events(request, r -> EventStream.reconnecting(r, maxEventSize, request, reconnect,
        again -> engine.events(again, s -> s, StreamingResponse::close)), EventStream::close);
  }

  /**
   * Opens a WebSocket to {@code url} ({@code ws://} or {@code wss://}; {@code http(s)://} and URLs
   * relative to the base URL are taken too) and returns once the server accepted the handshake;
   * {@code listener} receives its messages. See {@link #websocket(Request, WebSocket.Listener)}.
   *
   * @throws InvalidUrlException if {@code url} is not a WebSocket or HTTP URL
   * @throws WebSocketHandshakeException if the server answers other than 101
   * @throws HttpException if connecting fails (ConnectException, ConnectTimeoutException,
   *     ReadTimeoutException while waiting for the answer, TlsException...)
   */
  public WebSocket websocket(String url, WebSocket.Listener listener) {
    return websocket(webSocketRequest(url), listener);
  }

  /**
   * Opens a WebSocket with {@code request} as the handshake (GET, no body; use
   * {@link Request#builder(String, String)} with an {@code http(s)} URL for {@code ws(s)}): its
   * headers are sent, {@code Sec-WebSocket-Protocol} lists the subprotocols offered
   * ({@link WebSocket#subprotocol()} tells which one the server chose). Like any request it gets the
   * client's default headers, {@code User-Agent}, {@link Auth} (applied once: a 401 is not answered)
   * and cookies; redirects are not followed. The socket has its own connection, and
   * {@link #close()} aborts it. Its timeouts are the request's (else the client's): connect, then
   * read for the handshake answer.
   *
   * {@snippet :
   * Request handshake = Request.builder("GET", "http://127.0.0.1:8080/ws/echo")
   *     .header("Sec-WebSocket-Protocol", "chat")
   *     .build();
   * WebSocket ws = client.websocket(handshake, new WebSocket.Listener() {});
   * }
   *
   * @throws WebSocketHandshakeException if the server answers other than 101
   * @throws HttpException if connecting fails
   */
  public WebSocket websocket(Request request, WebSocket.Listener listener) {
    return Futures.await(websocketAsync(request, listener), request);
  }

  CompletableFuture<WebSocket> websocketAsync(Request request, WebSocket.Listener listener) {
    return engine.websocket(request, listener);
  }

  /** The request for a WebSocket URL: {@code ws(s)} maps to {@code http(s)}, which a Request holds. */
  static Request webSocketRequest(String url) {
    Objects.requireNonNull(url, "url");
    return Request.get(WebSocketUrls.toRequestUrl(url));
  }

  /** The same calls, returning futures. */
  public AsyncClient async() {
    return async;
  }

  public Response get(String url) {
    return send(Request.get(url));
  }

  public Response head(String url) {
    return send(shortcut("HEAD", url, null));
  }

  public Response delete(String url) {
    return send(shortcut("DELETE", url, null));
  }

  public Response options(String url) {
    return send(shortcut("OPTIONS", url, null));
  }

  public Response post(String url, RequestBody body) {
    return send(shortcut("POST", url, body));
  }

  public Response put(String url, RequestBody body) {
    return send(shortcut("PUT", url, body));
  }

  public Response patch(String url, RequestBody body) {
    return send(shortcut("PATCH", url, body));
  }

  /** The safe, idempotent QUERY method: a GET that carries its query in the body. */
  public Response query(String url, RequestBody body) {
    return send(shortcut("QUERY", url, body));
  }

  /**
   * The cookies this client holds now, unexpired, in storage order; empty when cookies are off.
   * A snapshot: later responses do not change the returned list.
   */
  public List<Cookie> cookies() {
    return engine.cookies();
  }

  /** Connections per origin, and which I/O transport is in use. */
  public ClientStats stats() {
    return engine.stats();
  }

  /** Closes idle connections and the transport. Requests in flight fail. */
  @Override
  public void close() {
    engine.close();
  }

  static Request shortcut(String method, String url, RequestBody body) {
    return Request.builder(method, url).body(body).build();
  }

  /** Configures a {@link Client}. */
  public static final class Builder {
    private URI baseUrl;
    private final Headers.Builder headers = Headers.builder();
    private final List<Map.Entry<String, String>> params = new ArrayList<>();
    private Timeout timeout = Timeout.DEFAULT;
    private Limits limits = Limits.DEFAULT;
    private boolean limitsSet;
    private boolean followRedirects;
    private int maxRedirects = 20;
    private boolean allowHttpsToHttpRedirect;
    private boolean cookies = true;
    private Transport transport;
    private final List<Consumer<Request>> requestHooks = new ArrayList<>();
    private final List<Consumer<ResponseHead>> responseHooks = new ArrayList<>();
    private String userAgent = "strand/" + StrandVersion.VERSION;
    private Auth auth;
    private Hsts hsts;
    private long maxBodySize = DEFAULT_MAX_BODY_SIZE;
    private int webSocketMaxMessageSize = 16 * 1024 * 1024;
    private boolean decompress = true;
    private Tls tls;
    // h2 where a TLS server agrees: one multiplexed connection per origin, as curl, OkHttp and the JDK client.
    private VersionPolicy version = VersionPolicy.HTTP_2;
    private boolean versionSet;
    private int maxEventSize = EventStream.DEFAULT_MAX_EVENT_SIZE;
    private Proxy proxy;
    private final List<Interceptor> interceptors = new ArrayList<>();
    private final List<Interceptor> networkInterceptors = new ArrayList<>();
    private java.util.concurrent.Executor interceptorExecutor;
    private double retryBudgetRatio = 0.2;
    private int retryBudgetMinPerSecond = 10;
    private RetryPolicy retryPolicy = RetryPolicy.none();
    private HttpCache cache;
    private java.nio.file.Path unixSocket;
    private Dns dns;
    private EventListener eventListener;
    private CookieJar cookieJar;
    private java.nio.charset.Charset defaultCharset;

    private Builder() {}

    /**
     * Told what each call does, step by step (default none, which costs nothing); see {@link EventListener}.
     */
    public Builder eventListener(EventListener listener) {
      this.eventListener = listener;
      return this;
    }

    /** Relative request URLs resolve against this absolute URL. */
    public Builder baseUrl(String baseUrl) {
      URI uri = Request.parseUrl(baseUrl);
      if (uri.getScheme() == null) {
        throw new InvalidUrlException("base URL must be absolute: \"" + baseUrl + "\"", baseUrl);
      }
      this.baseUrl = uri;
      return this;
    }

    /** A header sent with every request (a request's own header of the same name wins). */
    public Builder header(String name, String value) {
      headers.add(name, value);
      return this;
    }

    /** A query parameter added to every request. */
    public Builder param(String name, String value) {
      params.add(Map.entry(Objects.requireNonNull(name), Objects.requireNonNull(value)));
      return this;
    }

    /** Timeouts for every request that sets none of its own. */
    public Builder timeout(Timeout timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout (use Timeout.none() for no limit)");
      return this;
    }

    /**
     * Pool bounds of the default transport. Like {@link #proxy} it cannot be combined with {@link #transport}:
     * give them to that transport ({@link NettyTransport.Builder#limits}).
     */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      this.limitsSet = true;
      return this;
    }

    /** Follow 3xx responses with a Location (default false). */
    public Builder followRedirects(boolean follow) {
      this.followRedirects = follow;
      return this;
    }

    /** Longest redirect chain followed before {@link TooManyRedirectsException} (default 20). */
    public Builder maxRedirects(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxRedirects must be >= 0: " + max);
      }
      this.maxRedirects = max;
      return this;
    }

    /** Allow a redirect from https to http (default false: such a redirect fails). */
    public Builder allowHttpsToHttpRedirect(boolean allow) {
      this.allowHttpsToHttpRedirect = allow;
      return this;
    }

    /**
     * Keep cookies set by responses, redirects included, and send them back (default true), by the
     * rules of RFC 6265; see {@link Client#cookies()}. A request's own Cookie header is sent as is,
     * without the stored cookies.
     */
    public Builder cookies(boolean enabled) {
      this.cookies = enabled;
      return this;
    }

    /**
     * The jar to keep cookies in (default a new {@link CookieJar#create()} per client): share one between
     * clients, inspect or edit it while they run, or save it with {@link CookieFile}. Ignored while
     * {@link #cookies(boolean) cookies(false)}.
     */
    public Builder cookieJar(CookieJar jar) {
      this.cookieJar = Objects.requireNonNull(jar, "jar (use cookies(false) for none)");
      return this;
    }

    /**
     * The charset {@link Response#text()} uses when the response names none (no charset in Content-Type,
     * no byte order mark, not JSON); default UTF-8. {@code ISO-8859-1} suits old servers whose
     * {@code text/*} bodies rely on HTTP/1.0's default.
     */
    public Builder defaultCharset(java.nio.charset.Charset charset) {
      this.defaultCharset = Objects.requireNonNull(charset, "charset");
      return this;
    }

    /** The transport to send through; the client closes it when closed. */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** Called with each request just before it is sent (each redirect hop too). */
    public Builder onRequest(Consumer<Request> hook) {
      requestHooks.add(Objects.requireNonNull(hook));
      return this;
    }

    /**
     * Called with each response head before its body is read. A hook that throws fails the call
     * with its exception, and the response's connection is released.
     */
    public Builder onResponse(Consumer<ResponseHead> hook) {
      responseHooks.add(Objects.requireNonNull(hook));
      return this;
    }

    /**
     * Adds an application interceptor: once per call, around redirects, retries and authentication,
     * seeing the final decoded response. The first added is outermost. See {@link Interceptor}.
     */
    public Builder interceptor(Interceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Where an async call's application interceptors go on once the response arrives: the code an interceptor
     * chains on {@code chain.proceed(...)} runs here, so it may block (fetch a token, write a slow log). Default:
     * a new virtual thread each time. A blocking call ({@link #build()}'s {@code send}, {@code stream}) runs it
     * on the calling thread instead, which waits anyway. Network interceptors are not affected: they run on
     * the thread that completed the step before them, an I/O thread as often as not, and must not block.
     */
    public Builder interceptorExecutor(java.util.concurrent.Executor executor) {
      this.interceptorExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Adds a network interceptor: once per exchange (each redirect hop and retry), just before the
     * request hooks and the transport, seeing the response as it came off the wire. The first added is
     * outermost. See {@link Interceptor}.
     */
    public Builder networkInterceptor(Interceptor interceptor) {
      networkInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * An HTTP cache (default none): put first among the network interceptors, so it sees each hop and
     * the body as it came off the wire. See {@link HttpCache}.
     */
    public Builder cache(HttpCache cache) {
      this.cache = cache;
      return this;
    }

    /**
     * How failed requests are retried (default {@link RetryPolicy#none()}); a request's own policy
     * ({@link Request.Builder#retry}) wins. All retries draw on the client's {@linkplain #retryBudget budget}.
     */
    public Builder retry(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy (use RetryPolicy.none() for none)");
      return this;
    }

    /**
     * How many retries this client may make (default 0.2 and 10), whichever policy, the client's or a
     * request's, asks for them: at most {@code ratio} times the calls of the last 10 seconds, plus
     * {@code minPerSecond} per second so that a quiet client can still retry. A spent budget reports the
     * failure at once, so a failing server does not receive a storm of retries.
     */
    public Builder retryBudget(double ratio, int minPerSecond) {
      if (!(ratio >= 0) || minPerSecond < 0) {
        throw new IllegalArgumentException("retry budget ratio and minPerSecond must be >= 0: " + ratio + ", "
            + minPerSecond);
      }
      this.retryBudgetRatio = ratio;
      this.retryBudgetMinPerSecond = minPerSecond;
      return this;
    }

    /** The User-Agent header (default {@code strand/VERSION}); {@code null} sends none. */
    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    /**
     * Remembers hosts that ask for HTTPS only ({@code Strict-Transport-Security}) and sends later {@code http://}
     * requests to them over https; {@code null} (the default) for none. See {@link Hsts}.
     */
    public Builder hsts(Hsts hsts) {
      this.hsts = hsts;
      return this;
    }

    /**
     * Credentials for every request: applied once per call, so a redirect to another origin does
     * not carry them (the Authorization header is dropped on such a hop); a 401 is answered at most
     * once through {@link Auth#onChallenge}.
     */
    public Builder auth(Auth auth) {
      this.auth = auth;
      return this;
    }

    /**
     * Largest decoded body a buffered call ({@link Client#send} and its shortcuts) reads into memory;
     * a larger one fails with {@link ProtocolException} naming the limit, and its connection is
     * dropped. Default {@value Client#DEFAULT_MAX_BODY_SIZE} bytes (64 MiB). {@link Request.Builder#maxBodySize}
     * overrides it per request; {@link Client#stream} is never limited (it holds one chunk at a time).
     */
    public Builder maxBodySize(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxBodySize must be >= 0: " + bytes);
      }
      this.maxBodySize = bytes;
      return this;
    }

    /**
     * Largest WebSocket message a socket of this client receives, in bytes after decompression
     * (default 16 MiB): a larger one (in one frame or fragmented) closes the socket with status 1009
     * and {@link WebSocket.Listener#onError} reports a {@link ProtocolException}.
     */
    public Builder webSocketMaxMessageSize(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("webSocketMaxMessageSize must be >= 1: " + bytes);
      }
      this.webSocketMaxMessageSize = bytes;
      return this;
    }

    /**
     * Send {@code Accept-Encoding} and decompress responses (default true): gzip and deflate
     * always, brotli ({@code br}) when {@code com.aayushatharva.brotli4j:brotli4j} is on the class path,
     * zstd when {@code com.github.luben:zstd-jni} is; only those are advertised. A body with any other
     * coding keeps it ({@link Response#bytes()} as received) and {@link Response#text()} refuses it with
     * a {@link ProtocolException} naming the coding. A decoded response no longer has
     * {@code Content-Encoding} and {@code Content-Length} headers, since both described the
     * encoded body (httpx keeps them; Strand does not). Response hooks still see them.
     */
    public Builder decompress(boolean decompress) {
      this.decompress = decompress;
      return this;
    }

    /**
     * TLS settings of the default transport (default {@link Tls#system()}). A configured context is built by
     * {@link #build()}, which fails with {@link IllegalArgumentException} if a file it names is missing or
     * unusable. Like {@link #proxy} it cannot be combined with {@link #transport}.
     */
    public Builder tls(Tls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /**
     * HTTP version policy of the default transport (default {@link VersionPolicy#HTTP_2}: h2 where an
     * {@code https} server agrees to it by ALPN, HTTP/1.1 elsewhere; {@link VersionPolicy#HTTP_1_1} for
     * HTTP/1.1 only; like {@link #proxy} it cannot be combined with {@link #transport}); see
     * {@link NettyTransport.Builder#version(VersionPolicy)}. {@link Response#version()} reports the
     * {@link Version} each response came with.
     */
    public Builder version(VersionPolicy version) {
      this.version = Objects.requireNonNull(version, "version");
      this.versionSet = true;
      return this;
    }

    /**
     * Largest server-sent event {@link Client#events} accepts, in bytes: one line, or the data lines of
     * one event (default {@link EventStream#DEFAULT_MAX_EVENT_SIZE}, 1 MiB). A larger one fails the
     * stream with {@link ProtocolException}, so a hostile server cannot exhaust memory.
     */
    public Builder maxEventSize(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxEventSize must be >= 1: " + bytes);
      }
      this.maxEventSize = bytes;
      return this;
    }

    /**
     * The proxy of the default transport (default {@link Proxy#system()}, the JVM's proxy settings;
     * the environment is read only if asked, with {@link Proxy#fromEnvironment()}; {@link Proxy#none()}
     * to go direct whatever the JVM says); see {@link Proxy} for the precedence. It cannot be combined
     * with {@link #transport(Transport)}: {@link #build()} then fails, since requests would silently bypass
     * the proxy. Set it on that transport instead.
     */
    public Builder proxy(Proxy proxy) {
      this.proxy = Objects.requireNonNull(proxy, "proxy (use Proxy.none() for none)");
      return this;
    }

    private List<Interceptor> networkInterceptors() {
      if (cache == null) {
        return List.copyOf(networkInterceptors);
      }
      List<Interceptor> all = new ArrayList<>(networkInterceptors.size() + 1);
      all.add(cache);
      all.addAll(networkInterceptors);
      return List.copyOf(all);
    }

    /**
     * The resolver of the default transport (default {@link Dns#system()}); see {@link Dns} and
     * {@link NettyTransport.Builder#dns}. Like {@link #proxy} it cannot be combined with {@link #transport}.
     */
    public Builder dns(Dns dns) {
      this.dns = Objects.requireNonNull(dns, "dns");
      return this;
    }

    /**
     * Sends every request of the default transport over this Unix domain socket; see
     * {@link NettyTransport.Builder#unixSocket}. Like {@link #proxy} it cannot be combined with {@link #transport}.
     */
    public Builder unixSocket(java.nio.file.Path socket) {
      this.unixSocket = Objects.requireNonNull(socket, "socket");
      return this;
    }

    /**
     * @throws IllegalStateException if {@link #transport} is set together with a setting of the default transport
     *     ({@link #tls}, {@link #version}, {@link #limits}, {@link #proxy}, {@link #dns}, {@link #unixSocket}),
     *     which would otherwise be ignored
     * @throws IllegalArgumentException if {@link #tls} names a missing or unusable file
     */
    public Client build() {
      Transport t = transport;
      if (t != null) {
        List<String> forTheDefault = new ArrayList<>();
        if (tls != null) {
          forTheDefault.add("tls");
        }
        if (versionSet) {
          forTheDefault.add("version");
        }
        if (limitsSet) {
          forTheDefault.add("limits");
        }
        if (proxy != null) {
          forTheDefault.add("proxy");
        }
        if (dns != null) {
          forTheDefault.add("dns");
        }
        if (unixSocket != null) {
          forTheDefault.add("unixSocket");
        }
        if (!forTheDefault.isEmpty()) {
          // Silently ignored, they would send requests without the TLS, proxy or resolver the caller asked for.
          String set = forTheDefault.stream().map(name -> name + "(...)").collect(Collectors.joining(", "));
          throw new IllegalStateException(set + " configure the default transport, but transport(...) is set: "
              + "give them to that transport (NettyTransport.builder()." + forTheDefault.get(0) + "(...)) instead");
        }
      }
      if (t == null) {
        NettyTransport.Builder nb = NettyTransport.builder().limits(limits).version(version);
        if (tls != null) {
          nb.tls(tls);
        }
        if (proxy != null) {
          nb.proxy(proxy);
        }
        if (unixSocket != null) {
          nb.unixSocket(unixSocket);
        }
        if (dns != null) {
          nb.dns(dns);
        }
        t = nb.build();
      }
      ClientConfig config = new ClientConfig(baseUrl, headers.build(), List.copyOf(params), timeout,
          followRedirects, maxRedirects, allowHttpsToHttpRedirect, cookies, t, List.copyOf(requestHooks),
          List.copyOf(responseHooks), userAgent, auth, maxBodySize, decompress,
          webSocketMaxMessageSize, List.copyOf(interceptors), networkInterceptors(), retryPolicy,
          retryBudgetRatio, retryBudgetMinPerSecond, eventListener, defaultCharset, hsts == null ? null : hsts.store(),
          interceptorExecutor != null ? interceptorExecutor : ClientEngine.VIRTUAL_THREADS);
      CookieJar jar = !cookies ? null : cookieJar != null ? cookieJar : CookieJar.create();
      return new Client(new ClientEngine(config, jar), maxEventSize);
    }
  }
}
