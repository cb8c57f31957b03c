package dev.strand.cli;

import dev.strand.Auth;
import dev.strand.Client;
import dev.strand.Cookie;
import dev.strand.CookieFile;
import dev.strand.CookieJar;
import dev.strand.Proxy;
import dev.strand.EventStream;
import dev.strand.Headers;
import dev.strand.Hsts;
import dev.strand.HttpException;
import dev.strand.Limits;
import dev.strand.NettyTransport;
import dev.strand.Request;
import dev.strand.RetryPolicy;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.VersionPolicy;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/** One request as the options describe it: send (with retries), then write head and body where asked. */
final class Transfer {
  /** The longest wait between retries, Retry-After included (curl's cap). */
  private static final Duration MAX_RETRY_DELAY = Duration.ofMinutes(10);

  /** Largest JSON body re-indented for a terminal; larger ones are written as they arrive. */
  private static final int PRETTY_LIMIT = 16 << 20;

  private final Options o;
  /** The client DNS over HTTPS goes through (--doh-url), closed with the transfer's. */
  private Client doh;
  private final Terminal terminal;
  private final OutputStream stdout;
  private final PrintStream err;
  private final Map<String, String> env;
  /** Response heads seen by the hook, for -i with redirects: every hop is printed, as curl does. */
  private final List<ResponseHead> heads = new ArrayList<>();
  private final CookieJar jar = CookieJar.create();
  /** What -w reports: timings, addresses and sizes of the current attempt. */
  private final TransferFacts facts = new TransferFacts();
  /** --trace-ascii, or null. */
  private TraceAscii trace;
  /** The TLS session -v last described: each connection's is printed once. */
  private SSLSession printedSession;

  Transfer(Options o, Terminal terminal, OutputStream stdout, PrintStream err, Map<String, String> env) {
    this.o = o;
    this.terminal = terminal;
    this.stdout = stdout;
    this.err = err;
    this.env = env;
  }

  int run() throws CliException, IOException {
    if (o.user != null && o.bearer != null) {
      throw new UsageException("use only one of -u/--user and --bearer");
    }
    facts.reset(System.nanoTime());
    Request request = RequestFactory.build(o);
    if (o.traceAscii != null) {
      trace = new TraceAscii(traceStream(o.traceAscii));
    }
    // Closed before the process exits: HotSpot's exit waits up to 300 ms for threads blocked in native
    // code, and an open client's I/O thread sits in the selector (measured: 514 -> ~200 ms per call).
    try (Client client = client(request); Client resolver = doh) {
      try {
        if (o.ws) {
          return new WebSocketSession(o, stdout, err, terminal.stdoutTty()).run(client, request, System.in);
        }
        return o.sse ? events(client, request) : withRetries(client, request);
      } finally {
        facts.endNanos = System.nanoTime();
        if (o.cookieJar != null) {
          writeCookies();
        }
        if (trace != null) {
          trace.close();
        }
      }
    }
  }

  /** What this transfer did, for -w (also after a failure). */
  TransferFacts facts() {
    return facts;
  }

  private PrintStream traceStream(String file) throws CliException {
    if (file.equals("-")) {
      return new PrintStream(stdout, true, StandardCharsets.UTF_8);
    }
    if (file.equals("%")) {
      return err;
    }
    try {
      return new PrintStream(new FileOutputStream(file), false, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(Failures.WRITE_ERROR, "cannot write " + file + ": " + e.getMessage());
    }
  }

  /**
   * {@code --retry N} as curl has it: a transfer that fails with a transient error (a timeout, 408, 429,
   * 500, 502, 503, 504; a refused connection with {@code --retry-connrefused}; anything with
   * {@code --retry-all-errors}) is made again from the start, up to N more times, waiting what
   * {@code Retry-After} asks, else {@code --retry-delay}, else 1, 2, 4 ... s up to 10 minutes; no retry
   * starts after {@code --retry-max-time}. Each attempt has the whole {@code -m} to itself.
   */
  private int withRetries(Client client, Request request) throws IOException, CliException {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      boolean mayRetry = attempt < o.retry
          && (o.retryMaxTimeSeconds <= 0 || System.nanoTime() - start < o.retryMaxTimeSeconds * 1e9);
      facts.reset(System.nanoTime());
      Duration retryAfter;
      String why;
      try {
        return transfer(client, request, mayRetry);
      } catch (TransientStatus t) {
        retryAfter = t.retryAfter;
        why = "HTTP " + t.status + t.reason;
      } catch (HttpException e) {
        if (!mayRetry || !isTransientFailure(e)) {
          throw e;
        }
        retryAfter = null;
        why = Failures.of(e, connectSeconds(), o.timeoutSeconds).message();
      } catch (CliException e) {
        if (!mayRetry || !o.retryAllErrors || e instanceof UsageException) {
          throw e;
        }
        retryAfter = null;
        why = e.getMessage();
      }
      Duration delay = retryAfter != null ? retryAfter
          : o.retryDelaySeconds >= 0 ? duration(o.retryDelaySeconds)
          : Duration.ofSeconds(1L << Math.min(attempt, 9));
      delay = delay.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : delay;
      synchronized (heads) {
        heads.clear(); // -i shows the answer kept, not the ones retried
      }
      if (!o.silent) {
        err.println("strand: " + why + "; retry " + (attempt + 1) + " of " + o.retry + " in "
            + Failures.seconds(seconds(delay)));
      }
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(Failures.INTERNAL, "interrupted while waiting to retry");
      }
    }
  }

  private boolean isTransientFailure(HttpException e) {
    if (o.retryAllErrors || e instanceof dev.strand.TimeoutException) {
      return true;
    }
    return o.retryConnRefused && e instanceof dev.strand.ConnectException && e.getMessage() != null
        && e.getMessage().contains("connection refused");
  }

  /** A response curl would retry (408, 429, 500, 502, 503, 504), seen while a retry is still allowed. */
  private static final class TransientStatus extends Exception {
    final int status;
    final String reason;
    final Duration retryAfter;

    TransientStatus(StreamingResponse r) {
      super(null, null, false, false);
      this.status = r.status();
      this.reason = statusText(r);
      this.retryAfter = retryAfter(r.headers().first("Retry-After"));
    }
  }

  private static boolean isTransient(int status) {
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }

  /** {@code Retry-After} in seconds or as an HTTP date; null if absent or unreadable. */
  static Duration retryAfter(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(value.strip())));
    } catch (NumberFormatException notSeconds) {
      try {
        java.time.ZonedDateTime at = java.time.ZonedDateTime.parse(value.strip(),
            java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(java.time.Instant.now(), at.toInstant());
        return d.isNegative() ? Duration.ZERO : d;
      } catch (java.time.format.DateTimeParseException unreadable) {
        return null;
      }
    }
  }

  /** -b FILE: curl's cookie files; a missing one starts an empty jar, as in curl. */
  private void readCookies() throws CliException {
    for (String value : o.cookies) {
      if (value.indexOf('=') >= 0) {
        continue; // a literal cookie, sent as the Cookie header (RequestFactory)
      }
      Path file = Path.of(value);
      if (!Files.exists(file)) {
        if (o.verbose) {
          err.println("* cookie file " + value + " does not exist; starting without cookies");
        }
        continue;
      }
      try {
        for (Cookie c : CookieFile.read(file)) {
          try {
            jar.add(c);
          } catch (IllegalArgumentException refused) {
            if (o.verbose) {
              err.println("* cookie file " + value + ": " + refused.getMessage());
            }
          }
        }
      } catch (java.io.UncheckedIOException e) {
        throw new CliException(Failures.READ_ERROR, e.getMessage());
      }
    }
  }

  /**
   * -n, --netrc-optional, --netrc-file: the credentials of the file curl would read ({@code --netrc-file}, else
   * {@code $NETRC}, else {@code ~/.netrc}). A missing file sends nothing, as in curl; -u wins over any of them.
   */
  private Auth netrc() throws CliException {
    Path file = Path.of(o.netrcFile != null ? o.netrcFile
        : env.getOrDefault("NETRC", Path.of(System.getProperty("user.home"), ".netrc").toString()));
    if (!Files.exists(file)) {
      if (o.verbose) {
        err.println("* netrc file " + file + " does not exist; sending no credentials from it");
      }
      return request -> request;
    }
    try {
      return Auth.netrc(file);
    } catch (java.io.UncheckedIOException e) {
      throw new CliException(Failures.READ_ERROR, "cannot read the netrc file " + file + ": " + e.getMessage());
    }
  }

  /** -c FILE: every cookie the jar holds after the transfer, in curl's format. */
  private void writeCookies() throws CliException {
    try {
      CookieFile.write(Path.of(o.cookieJar), jar.cookies());
    } catch (java.io.UncheckedIOException e) {
      throw new CliException(Failures.WRITE_ERROR, e.getMessage());
    }
  }

  /** {@code --proxy}, else the environment's proxy variables unless {@code --no-proxy-env}; see {@link ProxyOptions}. */
  private Proxy proxy() throws UsageException {
    return ProxyOptions.of(o, env);
  }

  /** {@code --sse}: one stream, its events printed as they arrive; a status of 400 or more fails (exit 22). */
  private int events(Client client, Request request) throws IOException, CliException {
    long start = System.nanoTime();
    try (EventStream events = client.events(request)) {
      if (o.include) {
        writeHeads(events.response(), stdout);
        stdout.flush();
      }
      boolean toStdout = o.output == null || o.output.equals("-");
      OutputStream out = toStdout ? stdout : openOutput();
      long count;
      try {
        count = EventPrinter.printAll(events, out);
      } catch (IOException e) {
        if (toStdout) {
          throw e;
        }
        throw new CliException(Failures.WRITE_ERROR, "cannot write " + o.output + ": " + e.getMessage());
      } finally {
        if (!toStdout) {
          closeOutput(out);
        }
      }
      if (o.verbose) {
        err.println("* " + count + " events in " + millis(System.nanoTime() - start) + " ms; the server ended the stream"
            + (events.lastEventId().isEmpty() ? "" : " (last event ID " + events.lastEventId() + ")"));
      }
    }
    return Failures.OK;
  }

  private int transfer(Client client, Request request, boolean mayRetry)
      throws IOException, CliException, TransientStatus {
    long start = System.nanoTime();
    long resumeFrom = resumeOffset();
    Request r = resumeFrom > 0 ? request.toBuilder().setHeader("Range", "bytes=" + resumeFrom + "-").build() : request;
    facts.lastRequest = r;
    StreamingResponse response = client.stream(r);
    try (response) {
      int status = response.status();
      if (mayRetry && (isTransient(status) || (o.retryAllErrors && status >= 400 && (o.fail || o.failWithBody)))) {
        throw new TransientStatus(response);
      }
      if (resumeFrom > 0 && alreadyComplete(response, resumeFrom)) {
        if (o.verbose) {
          err.println("* the whole file is already here (" + resumeFrom + " bytes): nothing to resume");
        }
        return Failures.OK;
      }
      if (resumeFrom > 0 && status == 200) {
        throw new CliException(Failures.RANGE_ERROR, "the server does not seem to support byte ranges: cannot resume"
            + Failures.on(request));
      }
      boolean failed = (o.fail || o.failWithBody) && status >= 400;
      if (failed && !o.failWithBody) {
        throw new CliException(Failures.HTTP_ERROR, "HTTP " + status + statusText(response)
            + Failures.on(response.request() != null ? response.request() : request));
      }
      if (o.include || o.head) {
        writeHeads(response, stdout);
      }
      if (o.dumpHeader != null) {
        dumpHeaders(response);
      }
      long bytes = "HEAD".equals(response.request() != null ? response.request().method() : request.method())
          ? 0 : writeBody(response, resumeFrom > 0 && status == 206);
      if (o.verbose) {
        err.println("* " + bytes + " body bytes in " + millis(System.nanoTime() - start) + " ms");
      }
      if (failed) {
        throw new CliException(Failures.HTTP_ERROR, "HTTP " + status + statusText(response)
            + Failures.on(response.request() != null ? response.request() : request));
      }
    }
    return Failures.OK;
  }

  /** -C: the byte offset to resume from; for {@code -C -} the size of the output file there is, else 0. */
  private long resumeOffset() throws UsageException {
    if (o.continueAt == null) {
      return 0;
    }
    if (!o.continueAt.equals("-")) {
      return Long.parseLong(o.continueAt);
    }
    if (o.output == null || o.output.equals("-")) {
      throw new UsageException("-C - needs -o FILE: the file to resume");
    }
    try {
      Path file = Path.of(o.output);
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** A 416 whose Content-Range says the resource is {@code offset} long, or a 200 of exactly that length. */
  private static boolean alreadyComplete(StreamingResponse r, long offset) {
    String range = r.headers().first("Content-Range");
    if (r.status() == 416 && range != null && range.strip().equals("bytes */" + offset)) {
      return true;
    }
    String length = r.headers().first("Content-Length");
    return r.status() == 200 && length != null && length.strip().equals(Long.toString(offset));
  }

  /** -D FILE (or - for stdout): the heads as -i prints them. */
  private void dumpHeaders(StreamingResponse response) throws IOException, CliException {
    if (o.dumpHeader.equals("-")) {
      writeHeads(response, stdout);
      return;
    }
    try (OutputStream out = new FileOutputStream(o.dumpHeader)) {
      writeHeads(response, out);
    } catch (IOException e) {
      throw new CliException(Failures.WRITE_ERROR, "cannot write " + o.dumpHeader + ": " + e.getMessage());
    }
  }

  private Client client(Request request) throws CliException {
    Timeout timeout = o.timeoutSeconds == 0 ? Timeout.none() : Timeout.of(duration(o.timeoutSeconds));
    if (o.sse && !o.timeoutGiven) {
      timeout = timeout.withRead(null); // an event stream may stay silent for long; curl has no read timeout
    }
    if (o.connectTimeoutSeconds >= 0) {
      timeout = timeout.withConnect(o.connectTimeoutSeconds == 0 ? null : duration(o.connectTimeoutSeconds));
    }
    if (o.maxTimeSeconds > 0) {
      timeout = timeout.withCall(duration(o.maxTimeSeconds));
    }
    // One I/O thread and NIO: a single exchange gains nothing from more threads, and loading the
    // native epoll library costs more start-up CPU than it saves (measured: -13% CPU per call).
    Proxy proxy = o.unixSocket != null ? Proxy.none() : proxy();
    NettyTransport transport;
    try {
      Tls tls = pinned(tls());
      if (o.noSessionId) {
        tls = tls.toBuilder().sessionResumption(false).build();
      }
      NettyTransport.Builder tb = NettyTransport.builder().ioThreads(1).preferNative(false).limits(Limits.ofConnections(4))
          .tls(tls).version(version());
      if (o.unixSocket != null) {
        tb.unixSocket(Path.of(o.unixSocket)); // curl ignores proxies with --unix-socket, and so do we
      } else {
        tb.proxy(proxy);
        doh = NameResolution.apply(o, tb, request.url(), tls);
      }
      transport = tb.build();
    } catch (IllegalArgumentException | IllegalStateException badTlsSettings) {
      throw new UsageException(badTlsSettings.getMessage());
    }
    Client.Builder b = Client.builder()
        .transport(transport)
        .timeout(timeout)
        .followRedirects(o.location)
        .maxRedirects(o.maxRedirects)
        .decompress(o.compressed)
        .eventListener(facts)
        .retry(RetryPolicy.none()); // retries are whole transfers, as curl makes them (withRetries)
    readCookies();
    b.cookieJar(jar);
    if (o.user != null) {
      int colon = o.user.indexOf(':');
      String user = o.user.substring(0, colon);
      String password = o.user.substring(colon + 1);
      b.auth(o.digest ? Auth.digest(user, password) : Auth.basic(user, password));
    } else if (o.bearer != null) {
      b.auth(Auth.bearer(o.bearer));
    } else if (o.negotiate) {
      ProxyOptions.useKerberosLogin(env);
      b.auth(Auth.negotiate());
    } else if (o.netrc || o.netrcOptional || o.netrcFile != null) {
      b.auth(netrc());
    }
    if (o.hsts != null) {
      try {
        b.hsts(Hsts.file(Path.of(o.hsts)));
      } catch (java.io.UncheckedIOException e) {
        throw new CliException(Failures.READ_ERROR, "cannot read the HSTS file " + o.hsts + ": " + e.getMessage());
      }
    }
    String userAgent = request.headers().first("User-Agent");
    if (userAgent != null || removes("User-Agent")) {
      b.userAgent(userAgent);
    }
    if (o.verbose) {
      err.println("* strand " + (Help.class.getPackage().getImplementationVersion() + ", Java ")
          + System.getProperty("java.version") + "; timeouts: connect "
          + (timeout.connect() == null ? "none" : Failures.seconds(seconds(timeout.connect())))
          + ", read " + (timeout.read() == null ? "none" : Failures.seconds(seconds(timeout.read())))
          + ", write " + (timeout.write() == null ? "none" : Failures.seconds(seconds(timeout.write()))));
      b.onRequest(r -> printRequest(r, proxy));
    }
    if (trace != null) {
      b.onRequest(trace::sent);
    }
    b.onResponse(this::onResponse);
    return b.build();
  }

  /** TLS as curl's flags say: {@code --cacert} replaces the system trust store, as in curl. */
  private Tls tls() throws UsageException {
    boolean versions = o.tlsMin != null || o.tlsMax != null || o.ciphers != null || o.tls13Ciphers != null;
    if (o.insecure && !versions) {
      return Tls.insecure();
    }
    if (o.cacert == null && o.cert == null && o.key == null && !versions) {
      return Tls.system();
    }
    Tls.Builder tls = o.insecure ? Tls.insecure().toBuilder() : Tls.builder();
    if (o.cacert != null) {
      tls.trustPem(existing(o.cacert, "--cacert")).trustSystem(false);
    }
    if (o.cert != null) {
      clientCertificate(tls);
    }
    if (o.tlsMin != null || o.tlsMax != null) {
      List<String> allowed = new ArrayList<>();
      for (String v : List.of("1.3", "1.2")) {
        if ((o.tlsMin == null || v.compareTo(o.tlsMin) >= 0) && (o.tlsMax == null || v.compareTo(o.tlsMax) <= 0)) {
          allowed.add("TLSv" + v);
        }
      }
      tls.protocols(allowed.toArray(String[]::new));
    }
    if (o.ciphers != null || o.tls13Ciphers != null) {
      List<String> suites = new ArrayList<>();
      for (String list : new String[] {o.tls13Ciphers, o.ciphers}) {
        if (list != null) {
          for (String suite : list.split("[:, ]+")) {
            if (!suite.isBlank()) {
              suites.add(suite.strip());
            }
          }
        }
      }
      try {
        tls.cipherSuites(suites.toArray(String[]::new));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--ciphers: " + e.getMessage());
      }
    }
    return tls.build();
  }

  /**
   * --pinnedpubkey as curl takes it, {@code sha256//BASE64} pins separated by {@code ;}, for every
   * host (curl's file form, a PEM or DER public key, is not supported).
   */
  private Tls pinned(Tls tls) throws UsageException {
    if (o.pinnedPubkey == null) {
      return tls;
    }
    try {
      return tls.toBuilder().pin("**", o.pinnedPubkey.strip().split("\\s*;\\s*")).build();
    } catch (IllegalArgumentException e) {
      throw new UsageException("--pinnedpubkey: " + e.getMessage());
    }
  }

  /**
   * -E as curl reads it: {@code FILE} or {@code FILE:PASSWORD}; a PKCS#12 file ({@code --cert-type P12}, or
   * a .p12/.pfx name), or PEM with the key in --key or in the same file.
   */
  private void clientCertificate(Tls.Builder tls) throws UsageException {
    String file = o.cert;
    String password = null;
    int colon = file.lastIndexOf(':');
    if (colon > 1 && !Files.exists(Path.of(file))) { // "C:\..." and names with colons stay whole
      password = file.substring(colon + 1);
      file = file.substring(0, colon);
    }
    String lower = file.toLowerCase(Locale.ROOT);
    boolean p12 = "P12".equals(o.certType) || (o.certType == null && (lower.endsWith(".p12") || lower.endsWith(".pfx")));
    if (p12) {
      tls.clientPkcs12(existing(file, "--cert"), (password == null ? "" : password).toCharArray());
    } else {
      Path cert = existing(file, "--cert");
      tls.clientCertificate(cert, o.key != null ? existing(o.key, "--key") : cert);
    }
  }

  private static Path existing(String file, String flag) throws UsageException {
    Path path = Path.of(file);
    if (!Files.isReadable(path)) {
      throw new UsageException(flag + " " + file + ": no such readable file");
    }
    return path;
  }

  private VersionPolicy version() {
    if (o.http3Only) {
      return VersionPolicy.HTTP_3_ONLY;
    }
    if (o.http3) {
      return VersionPolicy.HTTP_3_FIRST;
    }
    if (o.http2PriorKnowledge) {
      return VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE;
    }
    return o.http11 ? VersionPolicy.HTTP_1_1 : VersionPolicy.HTTP_2;
  }

  private double connectSeconds() {
    return o.connectTimeoutSeconds >= 0 ? o.connectTimeoutSeconds : o.timeoutSeconds;
  }

  private void onResponse(ResponseHead head) {
    synchronized (heads) {
      heads.add(head);
    }
    if (trace != null) {
      trace.received(head);
    }
    if (o.verbose) {
      StringBuilder sb = new StringBuilder();
      head.sslSession().filter(session -> session != printedSession).ifPresent(session -> {
        printedSession = session;
        sb.append("* ").append(describe(session)).append('\n');
      });
      sb.append("< ").append(head.version()).append(' ').append(head.status()).append(statusText(head)).append('\n');
      for (int i = 0; i < head.headers().size(); i++) {
        sb.append("< ").append(head.headers().name(i)).append(": ")
            .append(shown(head.headers().name(i), head.headers().value(i))).append('\n');
      }
      sb.append("<\n");
      err.print(sb);
      err.flush();
    }
  }

  /** curl's {@code -v} TLS lines in one: protocol, cipher suite, and the server certificate's names and expiry. */
  static String describe(SSLSession session) {
    StringBuilder sb = new StringBuilder("TLS: ").append(session.getProtocol()).append(", ").append(session.getCipherSuite());
    try {
      if (session.getPeerCertificates()[0] instanceof X509Certificate leaf) {
        sb.append("; server certificate: subject ").append(leaf.getSubjectX500Principal().getName())
            .append(", issuer ").append(leaf.getIssuerX500Principal().getName())
            .append(", expires ").append(leaf.getNotAfter().toInstant());
      }
    } catch (SSLPeerUnverifiedException unverified) {
      sb.append("; server not verified");
    }
    return sb.toString();
  }

  private void printRequest(Request r, Proxy proxy) {
    URI url = r.url();
    StringBuilder sb = new StringBuilder();
    String scheme = url.getScheme() == null ? "http" : url.getScheme();
    int port = url.getPort() >= 0 ? url.getPort() : scheme.equalsIgnoreCase("https") ? 443 : 80;
    sb.append("* ").append(scheme).append("://").append(url.getHost()).append(':').append(port)
        .append(scheme.equalsIgnoreCase("https") ? " over TLS" : " in cleartext (no TLS)")
        .append(proxy.proxyFor(url).map(p -> ", through proxy " + p).orElse("")).append('\n');
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    sb.append("> ").append(r.method()).append(' ').append(path);
    if (url.getRawQuery() != null) {
      sb.append('?').append(url.getRawQuery());
    }
    sb.append(" HTTP/1.1\n");
    if (r.headers().first("Host") == null) {
      sb.append("> Host: ").append(url.getHost()).append(url.getPort() >= 0 ? ":" + url.getPort() : "").append('\n');
    }
    Headers h = r.headers();
    for (int i = 0; i < h.size(); i++) {
      sb.append("> ").append(h.name(i)).append(": ").append(shown(h.name(i), h.value(i))).append('\n');
    }
    if (r.body() != null) {
      sb.append("* body: ").append(r.body().contentLength() < 0 ? "streamed" : r.body().contentLength() + " bytes")
          .append(r.body().contentType() == null ? "" : ", " + r.body().contentType()).append('\n');
    }
    sb.append(">\n");
    err.print(sb);
    err.flush();
  }

  /**
   * A header value as {@code -v} shows it: credentials ({@code Authorization}, {@code Proxy-Authorization},
   * {@code Cookie}, {@code Set-Cookie}) as {@code <redacted>} unless {@code --no-redact}, so a pasted
   * log leaks nothing; {@code -i} output is the response itself and is never redacted.
   */
  private String shown(String name, String value) {
    if (o.noRedact) {
      return value;
    }
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "authorization", "proxy-authorization", "cookie", "set-cookie" -> "<redacted>";
      default -> value;
    };
  }

  /** curl's {@code -i}: the status line and headers of every response received, CRLF-terminated. */
  private void writeHeads(ResponseHead last, OutputStream out) throws IOException {
    List<ResponseHead> all;
    synchronized (heads) {
      all = new ArrayList<>(heads);
    }
    if (all.isEmpty() || all.get(all.size() - 1).status() != last.status()) {
      all.add(last);
    }
    StringBuilder sb = new StringBuilder();
    for (ResponseHead head : all) {
      sb.append(head.version()).append(' ').append(head.status()).append(statusText(head)).append("\r\n");
      for (int i = 0; i < head.headers().size(); i++) {
        sb.append(head.headers().name(i)).append(": ").append(head.headers().value(i)).append("\r\n");
      }
      sb.append("\r\n");
    }
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Writes the body to stdout or the -o file; returns the number of bytes received. */
  private long writeBody(StreamingResponse response, boolean append) throws CliException, IOException {
    if (o.remoteName) {
      o.output = RemoteName.of(response, o.remoteHeaderName);
    }
    boolean toStdout = o.output == null || o.output.equals("-");
    facts.fileName = toStdout ? null : o.output;
    String contentType = response.headers().first("Content-Type");
    if (toStdout && terminal.stdoutTty() && JsonPrinter.isJson(contentType) && trace == null && o.limitRate == 0) {
      return writePretty(response, contentType);
    }
    OutputStream out = toStdout ? stdout : openOutput(append);
    Progress progress = !toStdout && terminal.stderrTty() && !o.silent
        ? new Progress(err, expectedLength(response), System.nanoTime())
        : null;
    long bytes = 0;
    try {
      long started = System.nanoTime();
      for (byte[] chunk : response.chunks()) {
        write(out, chunk, 0, chunk.length, toStdout);
        bytes += chunk.length;
        facts.downloaded = bytes;
        if (trace != null) {
          trace.received(chunk, chunk.length);
        }
        if (o.limitRate > 0) {
          throttle(bytes, started);
        }
        if (progress != null) {
          progress.update(bytes, System.nanoTime());
        }
      }
      if (progress != null) {
        progress.finish(bytes, System.nanoTime());
      }
    } finally {
      if (!toStdout) {
        closeOutput(out);
      }
    }
    return bytes;
  }

  private long writePretty(StreamingResponse response, String contentType) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    long bytes = 0;
    boolean overflow = false;
    for (byte[] chunk : response.chunks()) {
      bytes += chunk.length;
      if (overflow) {
        stdout.write(chunk);
      } else {
        buffer.write(chunk);
        if (buffer.size() > PRETTY_LIMIT) {
          buffer.writeTo(stdout);
          overflow = true;
        }
      }
    }
    if (!overflow) {
      String pretty = JsonPrinter.format(new String(buffer.toByteArray(), charset(contentType)), terminal.color());
      if (pretty != null) {
        stdout.write(pretty.getBytes(StandardCharsets.UTF_8));
      } else {
        buffer.writeTo(stdout);
      }
    }
    return bytes;
  }

  /**
   * --limit-rate: sleeps until {@code bytes} are no more than the rate allows since {@code started}. The
   * body is read with backpressure, so a reader that waits slows the sender too, as curl's does.
   */
  private void throttle(long bytes, long started) throws CliException {
    long due = started + (long) (bytes * 1e9 / o.limitRate);
    long wait = due - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(Duration.ofNanos(wait));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(Failures.INTERNAL, "interrupted");
      }
    }
  }

  private OutputStream openOutput() throws CliException {
    return openOutput(false);
  }

  private OutputStream openOutput(boolean append) throws CliException {
    try {
      return new FileOutputStream(o.output, append);
    } catch (IOException e) {
      throw new CliException(Failures.WRITE_ERROR, "cannot write " + o.output + ": " + e.getMessage());
    }
  }

  private void write(OutputStream out, byte[] b, int off, int len, boolean toStdout) throws CliException, IOException {
    if (toStdout) {
      out.write(b, off, len);
      return;
    }
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw new CliException(Failures.WRITE_ERROR, "cannot write " + o.output + ": " + e.getMessage());
    }
  }

  private void closeOutput(OutputStream out) throws CliException {
    try {
      out.close();
    } catch (IOException e) {
      throw new CliException(Failures.WRITE_ERROR, "cannot write " + o.output + ": " + e.getMessage());
    }
  }

  /** Content-Length, unless the body was decompressed (then the length on the wire says nothing). */
  private long expectedLength(StreamingResponse response) {
    String encoding = response.headers().first("Content-Encoding");
    String length = response.headers().first("Content-Length");
    if (length == null || (encoding != null && o.compressed && !encoding.equalsIgnoreCase("identity"))) {
      return -1;
    }
    try {
      return Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private boolean removes(String header) {
    for (String h : o.headers) {
      int colon = h.indexOf(':');
      if (h.substring(0, colon).strip().equalsIgnoreCase(header) && h.substring(colon + 1).isBlank()) {
        return true;
      }
    }
    return false;
  }

  private static String statusText(ResponseHead head) {
    return head.reason() == null || head.reason().isEmpty() ? "" : " " + head.reason();
  }

  private static Charset charset(String contentType) {
    if (contentType != null) {
      int i = contentType.toLowerCase(Locale.ROOT).indexOf("charset=");
      if (i >= 0) {
        String name = contentType.substring(i + 8).split(";")[0].strip().replace("\"", "");
        try {
          return Charset.forName(name);
        } catch (RuntimeException unknown) {
          return StandardCharsets.UTF_8;
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  private static Duration duration(double seconds) {
    return Duration.ofNanos((long) (seconds * 1e9));
  }

  private static double seconds(Duration d) {
    return d == null ? 0 : d.toNanos() / 1e9;
  }

  private static String millis(long nanos) {
    return Long.toString(nanos / 1_000_000);
  }
}
