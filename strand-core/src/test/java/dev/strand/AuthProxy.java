package dev.strand;

import dev.strand.testkit.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A scripted HTTP proxy for the authentication tests, over TCP or TLS: each request head goes to a
 * {@link Policy}, whose answer is written back (a {@code 407}, say, keeping the connection or closing
 * it); no answer means yes: a {@code CONNECT} gets {@code 200} and a relay to {@code 127.0.0.1:port}
 * of its target, a forwarded request a canned {@code 200 ok}.
 */
final class AuthProxy implements AutoCloseable {
  /** Decides on one request head; {@code null} lets it through. */
  @FunctionalInterface
  interface Policy {
    String answer(int connection, String head);
  }

  /** One request the proxy received: on which connection, its request line, its Proxy-Authorization. */
  record Seen(int connection, String requestLine, String proxyAuthorization) {}

  private final ServerSocket server;
  private final Policy policy;
  private final AtomicInteger accepted = new AtomicInteger();
  final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  private AuthProxy(ServerSocket server, Policy policy) {
    this.server = server;
    this.policy = policy;
    Thread.ofVirtual().start(this::acceptLoop);
  }

  static AuthProxy start(Policy policy) throws IOException {
    return new AuthProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), policy);
  }

  /** Over TLS, with the test PKI's {@code localhost} certificate. */
  static AuthProxy startTls(Policy policy) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = java.nio.file.Files.newInputStream(SharedTestPki.get().server().p12())) {
      ks.load(in, TestPki.PASSWORD.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, TestPki.PASSWORD.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    return new AuthProxy(ctx.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress()), policy);
  }

  int port() {
    return server.getLocalPort();
  }

  int accepted() {
    return accepted.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        open.add(s);
        int n = accepted.incrementAndGet();
        Thread.ofVirtual().start(() -> serve(s, n));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s, int n) {
    try (s) {
      s.setSoTimeout(10_000);
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        String line = head.substring(0, head.indexOf("\r\n"));
        seen.add(new Seen(n, line, header(head, "Proxy-Authorization")));
        String answer = policy.answer(n, head);
        if (answer != null) {
          out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          if (answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close")) {
            return;
          }
          continue;
        }
        if (!line.startsWith("CONNECT ")) {
          out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          continue;
        }
        String target = line.split(" ")[1];
        int port = Integer.parseInt(target.substring(target.lastIndexOf(':') + 1));
        out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
          Thread pump = Thread.ofVirtual().start(() -> copy(upstream, s));
          copy(s, upstream);
          pump.join();
        }
        return;
      }
    } catch (IOException | InterruptedException e) {
      // the client went away
    } finally {
      open.remove(s);
    }
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.setSoTimeout(0);
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException ignored) {
      // either side closed
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException | UnsupportedOperationException ignored) {
        try {
          to.close(); // an SSLSocket cannot half-close
        } catch (IOException e) {
          // closed already
        }
      }
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      b.write(c);
      String s = b.toString(StandardCharsets.ISO_8859_1);
      if (s.endsWith("\r\n\r\n")) {
        return s;
      }
    }
    return null;
  }

  static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
        return line.substring(colon + 1).strip();
      }
    }
    return null;
  }

  /** Whether {@code authorization} is a correct Digest (MD5, qop=auth) answer for {@code user}/{@code password}. */
  static boolean validDigest(String authorization, String method, String user, String password) {
    if (authorization == null || !authorization.startsWith("Digest ")) {
      return false;
    }
    Map<String, String> p = new ConcurrentHashMap<>();
    Matcher m = Pattern.compile("(\\w+)=(?:\"([^\"]*)\"|([^,\\s]+))").matcher(authorization.substring(7));
    while (m.find()) {
      p.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
    }
    String ha1 = md5(user + ":" + p.get("realm") + ":" + password);
    String ha2 = md5(method + ":" + p.get("uri"));
    String expected = md5(ha1 + ":" + p.get("nonce") + ":" + p.get("nc") + ":" + p.get("cnonce") + ":auth:" + ha2);
    return user.equals(p.get("username")) && expected.equals(p.get("response"));
  }

  private static String md5(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
