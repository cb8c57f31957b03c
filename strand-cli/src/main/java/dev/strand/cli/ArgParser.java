package dev.strand.cli;

/**
 * Parses curl-style arguments: {@code -X POST}, {@code -XPOST}, clustered flags ({@code -sL}),
 * {@code --name value}, {@code --name=value}, and {@code --} before a URL that starts with a dash.
 *
 * @implNote Hand-written rather than annotation-driven: a plain string switch loads no reflection
 *     or lambda machinery, which keeps {@code strand --version} and every call's start-up short.
 */
final class ArgParser {
  /** How deep -K files may include others: curl's own limit is low too, and a loop must end. */
  private static final int MAX_CONFIG_DEPTH = 8;
  private final String[] args;
  private int next;
  private final Options o;
  private final int depth;

  private ArgParser(String[] args, Options o, int depth) {
    this.args = args;
    this.o = o;
    this.depth = depth;
  }

  static Options parse(String[] args) throws UsageException {
    Options o = new ArgParser(args, new Options(), 0).run();
    if (!o.help && !o.version) {
      check(o);
    }
    return o;
  }

  private Options run() throws UsageException {
    boolean endOfOptions = false;
    while (next < args.length) {
      String arg = args[next++];
      if (endOfOptions || arg.equals("-") || !arg.startsWith("-")) {
        url(arg);
      } else if (arg.equals("--")) {
        endOfOptions = true;
      } else if (arg.startsWith("--")) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        String inline = eq < 0 ? null : arg.substring(eq + 1);
        if (!takesValue(name)) {
          if (inline != null) {
            throw new UsageException("option " + name + " takes no value");
          }
          flag(name);
        } else {
          option(name, inline != null ? inline : value(name));
        }
      } else {
        shortCluster(arg);
      }
    }
    return o;
  }

  /** {@code -sL}, {@code -XPOST}, {@code -o out.bin}: flags until one that takes a value. */
  private void shortCluster(String arg) throws UsageException {
    for (int i = 1; i < arg.length(); i++) {
      String name = "-" + arg.charAt(i);
      if (takesValue(name)) {
        String rest = arg.substring(i + 1);
        option(name, rest.isEmpty() ? value(name) : rest);
        return;
      }
      flag(name);
    }
  }

  private String value(String name) throws UsageException {
    if (next >= args.length) {
      throw new UsageException("option " + name + " needs a value");
    }
    return args[next++];
  }

  private void url(String arg) {
    o.urls.add(arg);
    if (o.url == null) {
      o.url = arg;
    }
  }

  /** {@code -K FILE}: curl's config file, its lines read as if they were on the command line. */
  private void config(String file) throws UsageException {
    if (depth >= MAX_CONFIG_DEPTH) {
      throw new UsageException("-K " + file + ": config files nest more than " + MAX_CONFIG_DEPTH + " deep");
    }
    String text;
    try {
      text = file.equals("-") ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          : java.nio.file.Files.readString(java.nio.file.Path.of(file));
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      throw new UsageException("-K " + file + ": cannot read it (" + e.getMessage() + ")");
    }
    new ArgParser(ConfigFile.arguments(text, file, ArgParser::takesValue), o, depth + 1).run();
  }

  static boolean takesValue(String name) {
    return switch (name) {
      case "-X", "--request", "-H", "--header", "--url-query", "--param", "-d", "--data", "--data-ascii",
          "--data-raw", "--data-binary", "--data-urlencode", "--json", "-F", "--form", "-T", "--upload-file",
          "-o", "--output", "--max-redirs", "-m", "--timeout", "--max-time", "--connect-timeout", "--retry",
          "--retry-delay", "--retry-max-time", "--unix-socket", "-u", "--user", "--bearer", "-b", "--cookie",
          "-c", "--cookie-jar", "-x", "--proxy", "-U", "--proxy-user", "--noproxy", "--proxy-cacert", "--cacert", "-E", "--cert", "--key", "--cert-type", "--resolve",
          "--connect-to", "--doh-url", "--interface", "-A", "--user-agent", "-e", "--referer", "-w", "--write-out",
          "-D", "--dump-header", "--trace-ascii", "-C", "--continue-at", "-r", "--range", "--limit-rate",
          "--netrc-file", "--parallel-max", "--tls-max", "--ciphers", "--tls13-ciphers", "--url", "-K", "--config",
          "--hsts" -> true;
      case "--pinnedpubkey" -> true;
      default -> false;
    };
  }

  private void flag(String name) throws UsageException {
    switch (name) {
      case "-i", "--include" -> o.include = true;
      case "-I", "--head" -> o.head = true;
      case "-v", "--verbose" -> o.verbose = true;
      case "--no-redact" -> o.noRedact = true;
      case "-s", "--silent" -> o.silent = true;
      case "-S", "--show-error" -> o.showError = true;
      case "-G", "--get" -> o.get = true;
      case "-O", "--remote-name" -> o.outputs.add(Options.REMOTE_NAME);
      case "--remote-name-all" -> o.remoteNameAll = true;
      case "-J", "--remote-header-name" -> o.remoteHeaderName = true;
      case "-p", "--proxytunnel" -> o.proxyTunnel = true;
      case "-n", "--netrc" -> o.netrc = true;
      case "--netrc-optional" -> o.netrcOptional = true;
      case "-Z", "--parallel" -> o.parallel = true;
      case "--fail-with-body" -> o.failWithBody = true;
      case "--retry-all-errors" -> o.retryAllErrors = true;
      case "--retry-connrefused" -> o.retryConnRefused = true;
      case "--tlsv1.2" -> o.tlsMin = "1.2";
      case "--tlsv1.3" -> o.tlsMin = "1.3";
      case "-1", "--tlsv1" -> o.tlsMin = "1.2"; // TLS 1.0 and 1.1 are disabled in the JDK: 1.2 is the least there is
      case "-L", "--location" -> o.location = true;
      case "--no-proxy-env" -> o.noProxyEnv = true;
      case "-k", "--insecure" -> o.insecure = true;
      // Of -4 and -6 the last one wins, as in curl.
      case "-4", "--ipv4" -> {
        o.ipv4 = true;
        o.ipv6 = false;
      }
      case "-6", "--ipv6" -> {
        o.ipv6 = true;
        o.ipv4 = false;
      }
      // HTTP/2 by ALPN is the default, as in curl; of --http1.1 and --http2 the last one wins.
      case "--http1.1" -> o.http11 = true;
      case "--http2" -> o.http11 = false;
      case "--http2-prior-knowledge" -> o.http2PriorKnowledge = true;
      case "--http3" -> o.http3 = true;
      case "--http3-only" -> o.http3Only = true;
      case "--digest" -> o.digest = true;
      case "--negotiate" -> o.negotiate = true;
      // Of --proxy-basic, --proxy-digest and --proxy-negotiate the last one wins, as in curl.
      case "--proxy-basic" -> o.proxyAuth = "basic";
      case "--proxy-digest" -> o.proxyAuth = "digest";
      case "--proxy-negotiate" -> o.proxyAuth = "negotiate";
      case "--proxy-insecure" -> o.proxyInsecure = true;
      case "--compressed" -> o.compressed = true;
      case "--no-compressed" -> o.compressed = false;
      case "--no-sessionid" -> o.noSessionId = true;
      case "-f", "--fail" -> o.fail = true;
      case "--sse" -> o.sse = true;
      case "--ws" -> o.ws = true;
      case "-h", "--help" -> o.help = true;
      case "-V", "--version" -> o.version = true;
      default -> throw new UsageException("unknown option " + name);
    }
  }

  private void option(String name, String value) throws UsageException {
    switch (name) {
      case "-X", "--request" -> o.method = value;
      case "-H", "--header" -> o.headers.add(header(value));
      case "--url-query", "--param" -> o.params.add(value);
      case "-d", "--data", "--data-ascii" -> o.data.add(new Options.Data(Options.DataKind.ASCII, value));
      case "--data-raw" -> o.data.add(new Options.Data(Options.DataKind.RAW, value));
      case "--data-binary" -> o.data.add(new Options.Data(Options.DataKind.BINARY, value));
      case "--data-urlencode" -> o.data.add(new Options.Data(Options.DataKind.URLENCODE, value));
      case "-T", "--upload-file" -> o.uploadFile = value;
      case "-A", "--user-agent" -> o.headers.add("User-Agent: " + value);
      case "-e", "--referer" -> {
        String referer = value.endsWith(";auto") ? value.substring(0, value.length() - 5) : value;
        if (!referer.isEmpty()) {
          o.headers.add("Referer: " + referer);
        }
      }
      case "-w", "--write-out" -> o.writeOut = value;
      case "-D", "--dump-header" -> o.dumpHeader = value;
      case "--trace-ascii" -> o.traceAscii = value;
      case "-C", "--continue-at" -> o.continueAt = continueAt(value);
      case "-r", "--range" -> o.range = value;
      case "--limit-rate" -> o.limitRate = rate(value);
      case "--netrc-file" -> o.netrcFile = value;
      case "--parallel-max" -> o.parallelMax = Math.max(1, Math.min(300, count(name, value)));
      case "--retry-max-time" -> o.retryMaxTimeSeconds = seconds(name, value);
      case "--tls-max" -> o.tlsMax = tlsVersion(value);
      case "--ciphers" -> o.ciphers = value;
      case "--tls13-ciphers" -> o.tls13Ciphers = value;
      case "--pinnedpubkey" -> o.pinnedPubkey = value;
      case "--cert-type" -> o.certType = value.toUpperCase(java.util.Locale.ROOT);
      case "--hsts" -> o.hsts = value;
      case "--url" -> url(value);
      case "-K", "--config" -> config(value);
      case "--json" -> o.json.add(value);
      case "-F", "--form" -> o.form.add(pair(name, value));
      case "-o", "--output" -> {
        o.outputs.add(value);
        if (o.output == null) {
          o.output = value;
        }
      }
      case "--max-redirs" -> o.maxRedirects = count(name, value);
      case "--timeout" -> {
        o.timeoutSeconds = seconds(name, value);
        o.timeoutGiven = true;
      }
      case "-m", "--max-time" -> o.maxTimeSeconds = seconds(name, value);
      case "--connect-timeout" -> o.connectTimeoutSeconds = seconds(name, value);
      case "--unix-socket" -> o.unixSocket = value;
      case "--retry" -> o.retry = count(name, value);
      case "--retry-delay" -> o.retryDelaySeconds = seconds(name, value);
      case "-u", "--user" -> o.user = user(value);
      case "--bearer" -> o.bearer = value;
      case "-b", "--cookie" -> o.cookies.add(value);
      case "-c", "--cookie-jar" -> o.cookieJar = value;
      case "-x", "--proxy" -> o.proxy = value;
      case "-U", "--proxy-user" -> o.proxyUser = proxyUser(value);
      case "--noproxy" -> o.noProxy = value;
      case "--proxy-cacert" -> o.proxyCacert = value;
      case "--cacert" -> o.cacert = value;
      case "-E", "--cert" -> o.cert = value;
      case "--key" -> o.key = value;
      case "--resolve" -> o.resolve.add(value);
      case "--connect-to" -> o.connectTo.add(value);
      case "--doh-url" -> o.dohUrl = value;
      case "--interface" -> o.iface = value;
      default -> throw new UsageException("unknown option " + name);
    }
  }

  private static void check(Options o) throws UsageException {
    if (o.url == null) {
      throw new UsageException("no URL given");
    }
    int bodies = (o.data.isEmpty() || o.get ? 0 : 1) + (o.json.isEmpty() ? 0 : 1) + (o.form.isEmpty() ? 0 : 1)
        + (o.uploadFile == null ? 0 : 1);
    if (bodies > 1) {
      throw new UsageException("use only one of -d/--data, --json, -F/--form and -T/--upload-file");
    }
    if (o.urls.size() > 1 && (o.ws || o.sse)) {
      throw new UsageException((o.ws ? "--ws" : "--sse") + " takes one URL");
    }
    if (o.remoteHeaderName && !o.remoteName && !o.remoteNameAll && !o.outputs.contains(Options.REMOTE_NAME)) {
      throw new UsageException("-J/--remote-header-name needs -O/--remote-name");
    }
    if (o.tlsMin != null && o.tlsMax != null && o.tlsMin.compareTo(o.tlsMax) > 0) {
      throw new UsageException("--tls-max " + o.tlsMax + " is below --tlsv" + o.tlsMin);
    }
    if (o.head && bodies > 0) {
      throw new UsageException("-I/--head sends no body; drop -d/--json/-F or use -X HEAD");
    }
    if (o.sse && (o.head || o.ws)) {
      throw new UsageException("--sse reads one event stream: drop " + (o.head ? "-I/--head" : "--ws"));
    }
    if (o.ws) {
      String clash = bodies > 0 ? "-d/--json/-F" : o.method != null && !o.method.equals("GET") ? "-X " + o.method
          : o.head ? "-I/--head" : o.include ? "-i/--include" : o.output != null ? "-o/--output" : o.retry > 0 ? "--retry" : null;
      if (clash != null) {
        throw new UsageException("--ws relays stdin and messages (the handshake is a GET; -v shows it): drop " + clash);
      }
    }
    if (o.digest && o.user == null) {
      throw new UsageException("--digest needs -u/--user USER:PASSWORD");
    }
    if (("basic".equals(o.proxyAuth) || "digest".equals(o.proxyAuth)) && o.proxyUser == null) {
      throw new UsageException("--proxy-" + o.proxyAuth + " needs -U/--proxy-user USER:PASSWORD");
    }
    if (o.negotiate && (o.user != null || o.bearer != null)) {
      throw new UsageException("--negotiate takes its credentials from Kerberos: drop " + (o.user != null ? "-u/--user" : "--bearer"));
    }
    if (o.key != null && o.cert == null) {
      throw new UsageException("--key needs --cert");
    }
    if (o.continueAt != null && o.continueAt.equals("-") && o.urls.size() == 1 && (o.output == null || o.output.equals("-"))) {
      throw new UsageException("-C - needs -o FILE: the file to resume");
    }
  }

  /** {@code -C -} or a byte offset. */
  private static String continueAt(String value) throws UsageException {
    if (value.equals("-")) {
      return value;
    }
    try {
      if (Long.parseLong(value.strip()) >= 0) {
        return value.strip();
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new UsageException("-C/--continue-at needs - or a byte offset, not \"" + value + "\"");
  }

  /** curl's rates: bytes per second with an optional K, M, G (powers of 1024) or a /s, /m, /h unit. */
  static long rate(String value) throws UsageException {
    String v = value.strip();
    long per = 1;
    int slash = v.indexOf('/');
    if (slash >= 0) {
      per = switch (v.substring(slash + 1).toLowerCase(java.util.Locale.ROOT)) {
        case "s", "" -> 1;
        case "m" -> 60;
        case "h" -> 3600;
        case "d" -> 86400;
        default -> throw new UsageException("--limit-rate \"" + value + "\": the unit after / is s, m, h or d");
      };
      v = v.substring(0, slash);
    }
    long unit = 1;
    if (!v.isEmpty()) {
      switch (Character.toUpperCase(v.charAt(v.length() - 1))) {
        case 'K' -> unit = 1L << 10;
        case 'M' -> unit = 1L << 20;
        case 'G' -> unit = 1L << 30;
        default -> unit = 1;
      }
      if (unit > 1) {
        v = v.substring(0, v.length() - 1);
      }
    }
    try {
      double n = Double.parseDouble(v);
      if (n > 0 && !Double.isInfinite(n)) {
        return Math.max(1, (long) (n * unit / per));
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new UsageException("--limit-rate needs a rate such as 100K or 2M, not \"" + value + "\"");
  }

  private static String tlsVersion(String value) throws UsageException {
    return switch (value.strip()) {
      case "1.2", "1.3" -> value.strip();
      case "default" -> null;
      case "1.0", "1.1" -> throw new UsageException("--tls-max " + value + ": TLS 1.0 and 1.1 are disabled in the JDK");
      default -> throw new UsageException("--tls-max needs 1.2, 1.3 or default, not \"" + value + "\"");
    };
  }

  private static String header(String value) throws UsageException {
    int colon = value.indexOf(':');
    if (colon <= 0) {
      throw new UsageException("header \"" + value + "\" is not \"Name: value\"");
    }
    return value;
  }

  private static String pair(String name, String value) throws UsageException {
    if (value.indexOf('=') <= 0) {
      throw new UsageException(name + " \"" + value + "\" is not name=value");
    }
    return value;
  }

  private static String user(String value) throws UsageException {
    if (value.indexOf(':') <= 0) {
      throw new UsageException("-u/--user needs USER:PASSWORD");
    }
    return value;
  }

  private static String proxyUser(String value) throws UsageException {
    if (value.indexOf(':') <= 0) {
      throw new UsageException("-U/--proxy-user needs USER:PASSWORD");
    }
    return value;
  }

  private static int count(String name, String value) throws UsageException {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new UsageException(name + " needs a whole number >= 0, not \"" + value + "\"");
  }

  private static double seconds(String name, String value) throws UsageException {
    try {
      double s = Double.parseDouble(value.strip());
      if (s >= 0 && s <= 1e9 && !Double.isNaN(s)) {
        return s;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new UsageException(name + " needs a number of seconds >= 0, not \"" + value + "\"");
  }
}
