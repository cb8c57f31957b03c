package dev.strand.cli;

import java.util.ArrayList;
import java.util.List;

/** Everything the command line asked for, as parsed by {@link ArgParser}. Plain fields: read once, never shared. */
final class Options implements Cloneable {
  /** The URL of this transfer (see {@link #forUrl}); {@link #urls} holds them all. */
  String url;
  /** Every URL, in order: positional, {@code --url} and from {@code -K} files. */
  final List<String> urls = new ArrayList<>();
  /** Per URL in order, as curl pairs them: {@code -o FILE}, or {@link #REMOTE_NAME} for {@code -O}. */
  final List<String> outputs = new ArrayList<>();
  static final String REMOTE_NAME = "\0remote-name";
  String method;
  final List<String> headers = new ArrayList<>();
  final List<String> params = new ArrayList<>();
  /** -d, --data-raw, --data-binary, --data-urlencode parts, in order (joined by &). */
  final List<Data> data = new ArrayList<>();
  final List<String> json = new ArrayList<>();
  final List<String> form = new ArrayList<>();

  boolean include;
  boolean head;
  boolean verbose;
  String output;
  boolean silent;

  boolean location;
  int maxRedirects = 20;
  double timeoutSeconds = 5;
  /** Whether --timeout was given (else --sse reads without a timeout). */
  boolean timeoutGiven;
  /** -m/--max-time: the whole transfer, retries included (curl's meaning); -1 for none. */
  double maxTimeSeconds = -1;
  double connectTimeoutSeconds = -1;
  int retry;
  double retryDelaySeconds = -1;
  String user;
  /** --digest: -u's credentials as HTTP Digest rather than Basic. */
  boolean digest;
  String bearer;
  /** -b values: a cookie file to read, or (with "=") a literal Cookie header value. */
  final List<String> cookies = new ArrayList<>();
  /** -c: the file to write the cookies to after the transfer. */
  String cookieJar;
  String proxy;
  /** -U/--proxy-user USER:PASSWORD for the proxy, whichever the proxy is (-x or the environment's). */
  String proxyUser;
  /** --proxy-basic/--proxy-digest/--proxy-negotiate: how to answer the proxy's 407 ("basic" by default). */
  String proxyAuth;
  /** --noproxy: hosts that go direct, replacing no_proxy (curl's syntax). */
  String noProxy;
  /** --proxy-cacert: the CA certificates an https:// proxy's certificate is checked against. */
  String proxyCacert;
  boolean proxyInsecure;
  /** --negotiate: answer the server's 401 with SPNEGO/Kerberos (the ticket cache kinit leaves). */
  boolean negotiate;
  /** --no-redact: -v shows credential header values as they are. */
  boolean noRedact;
  /** --unix-socket: every connection goes to this socket; the URL names the origin. */
  String unixSocket;
  boolean noProxyEnv;
  /** --resolve HOST:PORT:ADDR[,ADDR]...: fixed addresses for a name. */
  final List<String> resolve = new ArrayList<>();
  /** --connect-to HOST1:PORT1:HOST2:PORT2: connect elsewhere, keep the URL. */
  final List<String> connectTo = new ArrayList<>();
  /** -4, -6: one address family only. */
  boolean ipv4;
  boolean ipv6;
  /** --doh-url: resolve names with DNS over HTTPS. */
  String dohUrl;
  /** --interface: the local interface or address to connect from. */
  String iface;
  String cacert;
  boolean insecure;
  String cert;
  String key;
  /** --http1.1: opt out of the default, h2 offered by ALPN over TLS. */
  boolean http11;
  boolean http2PriorKnowledge;
  boolean http3;
  boolean http3Only;
  boolean compressed = true;
  boolean fail;
  boolean sse;
  boolean ws;

  boolean help;
  boolean version;

  /** How curl reads one data argument. */
  enum DataKind {
    /** -d, --data, --data-ascii: {@code @FILE} read with CR and LF removed. */
    ASCII,
    /** --data-raw: the text as given, {@code @} included. */
    RAW,
    /** --data-binary: {@code @FILE} read byte for byte. */
    BINARY,
    /** --data-urlencode: {@code [name]=content}, {@code [name]@FILE}, percent-encoded. */
    URLENCODE
  }

  record Data(DataKind kind, String value) {}

  /** -S: failures printed even with -s. */
  boolean showError;
  /** -G: the data goes into the URL's query of a GET. */
  boolean get;
  /** -T: the file (or - for stdin) to PUT. */
  String uploadFile;
  /** -O for this transfer: the file name is the URL's last path segment. */
  boolean remoteName;
  boolean remoteNameAll;
  /** -J: with -O, the name from Content-Disposition. */
  boolean remoteHeaderName;
  /** -w: what to print after the transfer. */
  String writeOut;
  /** -D: where to write the response headers. */
  String dumpHeader;
  /** --trace-ascii: where to write curl's trace of what was sent and received. */
  String traceAscii;
  /** -C: "-" to continue where the output file ends, else a byte offset; null for none. */
  String continueAt;
  /** -r: the byte range(s) to ask for. */
  String range;
  /** -p, --proxytunnel: a CONNECT tunnel through an HTTP proxy for http:// too. */
  boolean proxyTunnel;
  /** --limit-rate in bytes per second, 0 for none. */
  long limitRate;
  /** -n, --netrc-optional, --netrc-file. */
  boolean netrc;
  boolean netrcOptional;
  String netrcFile;
  /** -Z: transfers at once, at most parallelMax. */
  boolean parallel;
  int parallelMax = 50;
  /** --fail-with-body: as -f, but the body is written. */
  boolean failWithBody;
  /** --retry-max-time: no retry starts after this many seconds (0: no limit). */
  double retryMaxTimeSeconds;
  boolean retryAllErrors;
  boolean retryConnRefused;
  /** --tlsv1.2, --tlsv1.3: the lowest TLS version; --tls-max the highest. */
  String tlsMin;
  String tlsMax;
  /** --ciphers (TLS 1.2) and --tls13-ciphers: cipher suites, colon-separated. */
  String ciphers;
  String tls13Ciphers;
  /** --pinnedpubkey sha256//BASE64[;sha256//BASE64...]: public-key pins for every host. */
  String pinnedPubkey;
  /** --no-sessionid: every TLS handshake a full one. */
  boolean noSessionId;
  /** --cert-type P12 and -E FILE:PASSWORD. */
  String certType;
  /** --hsts FILE: the HSTS cache, read and written back. */
  String hsts;

  /** These options for the {@code index}th URL, with its output. */
  Options forUrl(int index) {
    Options one;
    try {
      one = (Options) clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
    one.url = urls.get(index);
    String out = index < outputs.size() ? outputs.get(index) : null;
    one.remoteName = REMOTE_NAME.equals(out) || (out == null && remoteNameAll);
    one.output = REMOTE_NAME.equals(out) ? null : out;
    return one;
  }

  /** The method to send: -X, else HEAD for -I, POST when a body is given, else GET. */
  String effectiveMethod() {
    if (method != null) {
      return method;
    }
    if (head) {
      return "HEAD";
    }
    if (uploadFile != null) {
      return "PUT";
    }
    return hasBody() ? "POST" : "GET";
  }

  /** Whether a body is sent: -d (unless -G moves it into the query), --json, -F or -T. */
  boolean hasBody() {
    return (!data.isEmpty() && !get) || !json.isEmpty() || !form.isEmpty() || uploadFile != null;
  }
}
