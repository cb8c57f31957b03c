package dev.strand.cli;

/**
 * Parses curl-style arguments: {@code -X POST}, {@code -XPOST}, clustered flags ({@code -sL}),
 * {@code --name value}, {@code --name=value}, and {@code --} before a URL that starts with a dash.
 *
 * @implNote Hand-written rather than annotation-driven: a plain string switch loads no reflection
 *     or lambda machinery, which keeps {@code strand --version} and every call's start-up short.
 */
final class ArgParser {
  private final String[] args;
  private int next;
  private final Options o = new Options();

  private ArgParser(String[] args) {
    this.args = args;
  }

  static Options parse(String[] args) throws UsageException {
    return new ArgParser(args).run();
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
    if (!o.help && !o.version) {
      check();
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

  private void url(String arg) throws UsageException {
    if (o.url != null) {
      throw new UsageException("one URL at a time (got \"" + o.url + "\" and \"" + arg + "\")");
    }
    o.url = arg;
  }

  private static boolean takesValue(String name) {
    return switch (name) {
      case "-X", "--request", "-H", "--header", "-p", "--param", "-d", "--data", "--json", "-F", "--form",
          "-o", "--output", "--max-redirs", "-m", "--timeout", "--max-time", "--connect-timeout", "--retry",
          "--retry-delay", "--unix-socket", "-u", "--user", "--bearer", "-b", "--cookie", "-c", "--cookie-jar", "-x", "--proxy",
          "--cacert", "-E", "--cert", "--key", "--resolve", "--connect-to", "--doh-url", "--interface" -> true;
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
      case "--compressed" -> o.compressed = true;
      case "--no-compressed" -> o.compressed = false;
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
      case "-p", "--param" -> o.params.add(pair(name, value));
      case "-d", "--data" -> o.data.add(value);
      case "--json" -> o.json.add(value);
      case "-F", "--form" -> o.form.add(pair(name, value));
      case "-o", "--output" -> o.output = value;
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

  private void check() throws UsageException {
    if (o.url == null) {
      throw new UsageException("no URL given");
    }
    int bodies = (o.data.isEmpty() ? 0 : 1) + (o.json.isEmpty() ? 0 : 1) + (o.form.isEmpty() ? 0 : 1);
    if (bodies > 1) {
      throw new UsageException("use only one of -d/--data, --json and -F/--form");
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
    if (o.key != null && o.cert == null) {
      throw new UsageException("--key needs --cert");
    }
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
