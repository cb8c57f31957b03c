package dev.strand.cli;

import java.util.ArrayList;
import java.util.List;

/** Everything the command line asked for, as parsed by {@link ArgParser}. Plain fields: read once, never shared. */
final class Options {
  String url;
  String method;
  final List<String> headers = new ArrayList<>();
  final List<String> params = new ArrayList<>();
  final List<String> data = new ArrayList<>();
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

  /** The method to send: -X, else HEAD for -I, POST when a body is given, else GET. */
  String effectiveMethod() {
    if (method != null) {
      return method;
    }
    if (head) {
      return "HEAD";
    }
    return hasBody() ? "POST" : "GET";
  }

  boolean hasBody() {
    return !data.isEmpty() || !json.isEmpty() || !form.isEmpty();
  }
}
