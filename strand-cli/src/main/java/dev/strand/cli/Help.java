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
      Usage: strand [OPTIONS] URL...
      Sends HTTP requests and writes the response bodies to stdout, curl's options with curl's meaning.
      GET unless -X or a body says otherwise. A URL without a scheme gets http://. Several URLs are
      fetched in turn (at once with -Z); the exit code is the last one's.

      Request:
        -X, --request METHOD     method to send, any token (GET, POST, QUERY, ...)
        -H, --header 'N: v'      add a header (repeatable); 'N:' with no value removes it
        -A, --user-agent TEXT    User-Agent ("" sends none)
        -e, --referer URL        Referer
            --url-query n=v      add a query parameter, percent-encoded (repeatable; also --param)
        -d, --data TEXT|@FILE    send a form body (POST unless -X); @FILE and @- (stdin) lose their
                                 newlines, as in curl; several -d are joined by &
            --data-raw TEXT      as -d, but @ is just a character
            --data-binary TEXT|@FILE   as -d, the file byte for byte (streamed when it is the only one)
            --data-urlencode [name]=TEXT | [name]@FILE   form-encode the text or file
        -G, --get                put the -d data in the URL's query and send a GET
            --json TEXT|@FILE    send a JSON body; sets Content-Type and Accept to application/json
        -F, --form name=value    multipart/form-data field (repeatable); name=@FILE[;type=T][;filename=N]
                                 uploads a file, streamed from disk
        -T, --upload-file FILE   PUT the file (- for stdin); a URL ending in / gets the file's name
        -r, --range RANGE        ask for these bytes only (Range: bytes=RANGE)
        -u, --user USER:PASS     HTTP Basic authentication (user:pass@ in the URL does the same)
        -n, --netrc              credentials from ~/.netrc ($NETRC names another); -u wins
            --netrc-file FILE    credentials from FILE instead (--netrc-optional: the same as -n)
            --hsts FILE          the HSTS cache, in curl's format: known hosts are asked over https://
            --digest             answer with -u's credentials by HTTP Digest (RFC 7616) instead
            --negotiate          answer the server's 401 by SPNEGO/Kerberos, with the ticket kinit left
            --bearer TOKEN       Authorization: Bearer TOKEN
        -b, --cookie DATA|FILE   send "name=value; n2=v2" as the Cookie header, or read a cookie file
                                 (Netscape/curl format; a missing file starts an empty jar)
        -c, --cookie-jar FILE    write all cookies to FILE after the transfer (curl's format)
            --url URL            one more URL (as a positional one)
        -K, --config FILE        read options from FILE, one a line (curl's format; - for stdin)

      Output:
        -i, --include            print status line and headers on stdout before the body
        -I, --head               send HEAD and print the status line and headers
        -D, --dump-header FILE   write the status lines and headers to FILE (- for stdout)
        -o, --output FILE        write the body to FILE (with a progress bar when stderr is a terminal);
                                 one -o per URL, in order
        -O, --remote-name        name the file after the URL's last path segment (--remote-name-all:
                                 for every URL)
        -J, --remote-header-name   with -O, the name Content-Disposition gives (never overwrites)
        -C, --continue-at -|N    resume: ask for the rest of -o FILE (or from byte N) and append it
        -w, --write-out FORMAT   print FORMAT after the transfer: %{http_code}, %{time_total},
                                 %{size_download}, %{url_effective}, %{content_type}, %{num_redirects},
                                 %{remote_ip}, %{exitcode}, %{errormsg}, %header{name}, %{stderr}... (@FILE)
        -v, --verbose            request and response headers and connection details on stderr
            --no-redact          -v shows Authorization, Cookie and Set-Cookie values (hidden by default)
                                 (and a stack trace on failure)
            --trace-ascii FILE   what was sent and received, in curl's trace format (- stdout, % stderr)
        -s, --silent             no progress bar, no retry notices, no failure message
        -S, --show-error         with -s, print failures all the same (-sS, as in curl)
        -f, --fail               exit 22, printing no body, when the status is 400 or more
            --fail-with-body     exit 22 when the status is 400 or more, after printing the body
        JSON bodies are indented and coloured when stdout is a terminal, never when piped.
        NO_COLOR=1 turns colour off.

      Connection:
        -L, --location           follow redirects (off by default)
            --max-redirs N       follow at most N redirects (default 20)
        -m, --max-time SECONDS   limit for each transfer attempt, body included (no default)
            --timeout SECONDS    limit for each phase: connect, read, write (default 5; 0 = none)
            --connect-timeout S  limit for connecting, if different
            --limit-rate RATE    read at most RATE bytes a second (100K, 2M, 1G; /s /m /h /d)
        -Z, --parallel           fetch the URLs at once (--parallel-max N, default 50)
            --unix-socket PATH   connect to this Unix domain socket; the URL names the origin
            --retry N            make a failed transfer again, up to N times, on a timeout, 408, 429,
                                 500, 502, 503 or 504, waiting what Retry-After says, else 1, 2, 4 ... s
            --retry-delay S      wait S seconds between retries instead
            --retry-max-time S   start no retry after S seconds
            --retry-connrefused  retry a refused connection too
            --retry-all-errors   retry on any error (with -f, any status of 400 or more too)
            --compressed         ask for gzip, deflate and brotli and decompress (default)
            --no-compressed      ask for and decode no compression
            --http1.1            HTTP/1.1 only
            --http2              offer HTTP/2 over TLS (ALPN), falling back to HTTP/1.1 (the default)
            --http2-prior-knowledge   HTTP/2 without negotiation (h2c on http://)
            --http3              try HTTP/3 (QUIC) to https:// URLs first; if it is not up within 500 ms
                                 or fails, HTTP/2 or 1.1 over TCP (also where Alt-Svc names another port)
            --http3-only         HTTP/3 over QUIC to https:// URLs, no fallback
        -x, --proxy URL          send through this proxy: http://[user:pass@]host:port (https:// and
                                 WebSockets go through a CONNECT tunnel), https://... (TLS to the proxy
                                 too) or socks5://[user:pass@]host:port
        -p, --proxytunnel        a CONNECT tunnel through the HTTP proxy for http:// URLs too
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
        -E, --cert FILE[:PASS]   client certificate: PEM (key in --key FILE or the same file), or
                                 PKCS#12 (.p12/.pfx, or --cert-type P12) with its password
            --tlsv1.2, --tlsv1.3 the lowest TLS version; --tls-max 1.2|1.3 the highest
            --ciphers LIST       TLS 1.2 cipher suites, colon-separated (OpenSSL or IANA names);
                                 --tls13-ciphers for TLS 1.3's
            --pinnedpubkey PINS  sha256//BASE64[;sha256//...]: a certificate of the server's chain
                                 must have one of these public keys
            --no-sessionid       never resume a TLS session: every handshake is a full one

      Streams:
            --sse                print each server-sent event as it arrives (event:/id:/data: lines,
                                 a blank line between); no read timeout unless --timeout is given
            --ws                 open a WebSocket (ws://, wss://, or http(s)://): each stdin line is
                                 sent as a text message, each message received is printed as a line;
                                 ends when stdin ends or the server closes (-v shows the close code)

      Other:
        -h, --help               this help
        -V, --version            version and features

      Where strand differs from curl, on purpose: every phase has a 5 s timeout (--timeout 0 for none);
        responses are decompressed by default (--no-compressed to opt out); the proxy variables are read
        (--no-proxy-env); -v hides credentials (--no-redact); JSON is coloured on a terminal; no
        Accept: */* is sent; -Z writes each transfer's output whole, never interleaved; --trace-ascii is
        rebuilt from the requests and responses, not the raw bytes; --url-query is also --param.

      Exit codes (as curl's): 0 ok, 2 usage, 3 bad URL, 6 cannot resolve host, 7 cannot connect,
        22 HTTP status >= 400 with --fail, 23 cannot write output, 26 cannot read input file, 28 timeout,
        33 cannot resume (no byte ranges), 35 TLS handshake, 47 too many redirects, 52 empty reply,
        56 receive or protocol error, 60 certificate not trusted.

      Examples:
        strand http://127.0.0.1:8080/small
        strand -i -L 127.0.0.1:8080/redirect/3
        strand -X QUERY --json '{"q": "strand"}' http://127.0.0.1:8080/echo
        strand -F title=holiday -F 'photo=@beach.jpg;type=image/jpeg' http://127.0.0.1:8080/sink
        strand -o big.bin -C - --retry 3 http://127.0.0.1:8080/bytes/52428800
        strand -fsSL -w '%{http_code} %{time_total}\\n' -o /dev/null http://127.0.0.1:8080/small
        strand --sse http://127.0.0.1:8080/sse?count=3
        echo hello | strand --ws ws://127.0.0.1:8080/ws/echo
        strand serve --port 8080        # the loopback test server
        strand bench --help             # the benchmark
      """;
}
