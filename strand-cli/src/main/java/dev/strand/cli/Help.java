package dev.strand.cli;

/** The text of {@code --help} and {@code --version}. */
final class Help {
  private Help() {}

  static String version() {
    String v = Help.class.getPackage().getImplementationVersion();
    return "strand " + (v != null ? v : "dev") + " (Strand HTTP client; Java " + System.getProperty("java.version")
        + ")\nFeatures: gzip deflate multipart retry TLS HTTP/2 proxy SSE WebSocket\n";
  }

  static final String TEXT = """
      Usage: strand [OPTIONS] URL
      Sends one HTTP request and writes the response body to stdout. GET unless -X or a body says otherwise.
      A URL without a scheme gets http://.

      Request:
        -X, --request METHOD     method to send, any token (GET, POST, QUERY, ...)
        -H, --header 'N: v'      add a header (repeatable); 'N:' with no value removes it
        -p, --param name=value   add a query parameter, percent-encoded (repeatable)
        -d, --data TEXT|@FILE    send a form body (POST unless -X); @- reads stdin; several are joined by &
            --json TEXT|@FILE    send a JSON body; sets Content-Type and Accept to application/json
        -F, --form name=value    multipart/form-data field (repeatable); name=@FILE[;type=T][;filename=N]
                                 uploads a file, streamed from disk
        -u, --user USER:PASS     HTTP Basic authentication (user:pass@ in the URL does the same)
            --digest             answer with -u's credentials by HTTP Digest (RFC 7616) instead
            --negotiate          answer the server's 401 by SPNEGO/Kerberos, with the ticket kinit left
        -b, --cookie DATA|FILE   send "name=value; n2=v2" as the Cookie header, or read a cookie file
                                 (Netscape/curl format; a missing file starts an empty jar)
        -c, --cookie-jar FILE    write all cookies to FILE after the transfer (curl's format)
            --bearer TOKEN       Authorization: Bearer TOKEN

      Output:
        -i, --include            print status line and headers on stdout before the body
        -I, --head               send HEAD and print the status line and headers
        -v, --verbose            request and response headers and connection details on stderr
            --no-redact          -v shows Authorization, Cookie and Set-Cookie values (hidden by default)
                                 (and a stack trace on failure)
        -o, --output FILE        write the body to FILE (with a progress bar when stderr is a terminal)
        -s, --silent             no progress bar and no retry notices (failures still print one line)
        JSON bodies are indented and coloured when stdout is a terminal, never when piped.
        NO_COLOR=1 turns colour off.

      Connection:
        -L, --location           follow redirects (off by default)
            --max-redirs N       follow at most N redirects (default 20)
        -m, --max-time SECONDS   limit for the whole transfer, retries and body included (no default)
            --timeout SECONDS    limit for each phase: connect, read, write (default 5; 0 = none)
            --connect-timeout S  limit for connecting, if different
            --unix-socket PATH   connect to this Unix domain socket; the URL names the origin
            --retry N            retry up to N times on connect failure, timeout, 408, 429 and 5xx,
                                 waiting a random time up to 1, 2, 4 ... s, or as Retry-After says
            --retry-delay S      wait S seconds between retries instead
            --compressed         ask for gzip, deflate and brotli and decompress (default)
            --no-compressed      ask for and decode no compression
        -f, --fail               exit 22, printing no body, when the status is 400 or more
            --http1.1            HTTP/1.1 only
            --http2              offer HTTP/2 over TLS (ALPN), falling back to HTTP/1.1 (the default)
            --http2-prior-knowledge   HTTP/2 without negotiation (h2c on http://)
            --http3              try HTTP/3 (QUIC) to https:// URLs first; if it is not up within 500 ms
                                 or fails, HTTP/2 or 1.1 over TCP (also where Alt-Svc names another port)
            --http3-only         HTTP/3 over QUIC to https:// URLs, no fallback
        -x, --proxy URL          send through this proxy: http://[user:pass@]host:port (https:// and
                                 WebSockets go through a CONNECT tunnel), https://... (TLS to the proxy
                                 too) or socks5://[user:pass@]host:port
            --no-proxy-env       ignore http_proxy, https_proxy, all_proxy and no_proxy (and their upper
                                 case), which are read by default
            --noproxy LIST       hosts that go direct, comma-separated ('*' for all), instead of no_proxy
        -U, --proxy-user U:P     credentials for the proxy (-x's or the environment's), Basic by default
            --proxy-basic        answer the proxy's 407 by Basic (the default; sent at once)
            --proxy-digest       answer it by HTTP Digest instead
            --proxy-negotiate    answer it by SPNEGO/Kerberos, with the ticket kinit left (no -U needed)
            --proxy-cacert FILE  trust only these CA certificates for an https:// proxy's own certificate
            --proxy-insecure     do not verify an https:// proxy's certificate (a warning is printed)

      Names and addresses:
            --resolve HOST:PORT:ADDR[,ADDR]...   use these addresses for HOST (for the URL's PORT, or *)
            --connect-to HOST1:PORT1:HOST2:PORT2  connect to HOST2:PORT2 for HOST1:PORT1 (empty: any / same)
        -4, --ipv4 / -6, --ipv6  use only IPv4 / IPv6 addresses
            --doh-url URL        resolve names with DNS over HTTPS (RFC 8484) at this https:// URL
            --interface NAME|ADDR   connect from this interface's (or this) address
        Every address of a name is tried, IPv6 and IPv4 interleaved, the next one 250 ms after the last
        started (Happy Eyeballs, as curl); --connect-timeout bounds them all together.

      TLS:
            --cacert FILE        trust only the CA certificates in this PEM file
        -k, --insecure           do not verify the server's certificate (a warning is printed)
        -E, --cert FILE --key FILE   client certificate and key (PEM)

      Streams:
            --sse                print each server-sent event as it arrives (event:/id:/data: lines,
                                 a blank line between); no read timeout unless --timeout is given
            --ws                 open a WebSocket (ws://, wss://, or http(s)://): each stdin line is
                                 sent as a text message, each message received is printed as a line;
                                 ends when stdin ends or the server closes (-v shows the close code)

      Other:
        -h, --help               this help
        -V, --version            version and features

      Exit codes (as curl's): 0 ok, 2 usage, 3 bad URL, 6 cannot resolve host, 7 cannot connect,
        22 HTTP status >= 400 with --fail, 23 cannot write output, 26 cannot read input file, 28 timeout,
        35 TLS handshake, 47 too many redirects, 52 empty reply, 56 receive or protocol error,
        60 certificate not trusted.

      Examples:
        strand http://127.0.0.1:8080/small
        strand -i -L 127.0.0.1:8080/redirect/3
        strand -X QUERY --json '{"q": "strand"}' http://127.0.0.1:8080/echo
        strand -F title=holiday -F 'photo=@beach.jpg;type=image/jpeg' http://127.0.0.1:8080/sink
        strand -o big.bin --retry 3 http://127.0.0.1:8080/bytes/52428800
        strand -f -s http://127.0.0.1:8080/status/404 || echo "failed with $?"
        strand --sse http://127.0.0.1:8080/sse?count=3
        echo hello | strand --ws ws://127.0.0.1:8080/ws/echo
        strand serve --port 8080        # the loopback test server
        strand bench --help             # the benchmark
      """;
}
