package dev.strand.internal.auth;

import dev.strand.Auth;
import dev.strand.Request;
import dev.strand.ResponseHead;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * HTTP Digest authentication (RFC 7616): answers a 401's {@code Digest} challenge, then sends the
 * following requests to the same origin with the server's nonce at once, counting {@code nc} up per
 * nonce, until the server calls it stale. MD5, SHA-256 and SHA-512-256, each also {@code -sess};
 * {@code qop=auth} (or no qop, RFC 2069); {@code userhash}; a non-ASCII user name as {@code username*}.
 *
 * <p>Of several Digest challenges the strongest algorithm is taken, so a server's MD5 offer cannot
 * downgrade a SHA-256 one. A 401 to credentials made with the nonce it challenges with again, not
 * called stale, means the credentials were refused: the 401 is returned, not retried. A new nonce
 * (stale, or a server that forgot the old one) is answered once.
 */
public final class DigestAuth implements Auth {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final List<String> STRENGTH = List.of("MD5", "SHA-256", "SHA-512-256"); // weakest first

  private final String user;
  private final String password;
  private final Supplier<String> cnonces;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** The challenge an origin last sent, and how often its nonce has been used. */
  private record Session(Challenges.Challenge challenge, AtomicInteger count) {}

  public DigestAuth(String user, String password) {
    this(user, password, DigestAuth::randomCnonce);
  }

  /** With given client nonces (tests reproduce RFC 7616's examples). */
  DigestAuth(String user, String password, Supplier<String> cnonces) {
    this.user = Objects.requireNonNull(user, "user");
    this.password = Objects.requireNonNull(password, "password");
    this.cnonces = cnonces;
  }

  @Override
  public Request apply(Request request) {
    Session s = sessions.get(origin(request.url()));
    return s == null ? request : authorize(request, s);
  }

  @Override
  public Request onChallenge(Request request, ResponseHead response) {
    Challenges.Challenge challenge = strongest(Challenges.parse(response.headers().all("WWW-Authenticate")));
    if (challenge == null) {
      return null;
    }
    if (challenge.param("nonce").equals(sentNonce(request)) && !"true".equalsIgnoreCase(challenge.param("stale"))) {
      sessions.remove(origin(request.url()));
      return null; // the server refused these credentials for its current nonce
    }
    Session s = new Session(challenge, new AtomicInteger());
    sessions.put(origin(request.url()), s);
    return authorize(request, s);
  }

  private Request authorize(Request request, Session s) {
    return request.toBuilder().setHeader("Authorization",
        authorization(s.challenge(), request.method(), requestTarget(request.url()), s.count().incrementAndGet(),
            cnonces.get()))
        .build();
  }

  /** {@link #authorization} with a fresh client nonce: for the proxy flavour, which keeps its own sessions. */
  String answer(Challenges.Challenge c, String method, String uri, int nc) {
    return authorization(c, method, uri, nc, cnonces.get());
  }

  /** The Authorization value answering {@code c} for the {@code nc}-th use of its nonce. */
  String authorization(Challenges.Challenge c, String method, String uri, int nc, String cnonce) {
    String algorithm = algorithm(c);
    String base = algorithm.endsWith("-SESS") ? algorithm.substring(0, algorithm.length() - 5) : algorithm;
    String realm = Objects.requireNonNullElse(c.param("realm"), "");
    String nonce = Objects.requireNonNullElse(c.param("nonce"), "");
    String ha1 = hash(base, user + ":" + realm + ":" + password);
    if (algorithm.endsWith("-SESS")) {
      ha1 = hash(base, ha1 + ":" + nonce + ":" + cnonce);
    }
    String ha2 = hash(base, method + ":" + uri);
    boolean qop = qopAuth(c);
    String ncText = String.format(Locale.ROOT, "%08x", nc);
    String response = qop
        ? hash(base, ha1 + ":" + nonce + ":" + ncText + ":" + cnonce + ":auth:" + ha2)
        : hash(base, ha1 + ":" + nonce + ":" + ha2);
    StringBuilder sb = new StringBuilder("Digest ");
    boolean userhash = "true".equalsIgnoreCase(c.param("userhash"));
    if (userhash) {
      sb.append("username=").append(quote(hash(base, user + ":" + realm)));
    } else if (isQuotable(user)) {
      sb.append("username=").append(quote(user));
    } else {
      sb.append("username*=UTF-8''").append(percentEncode(user));
    }
    sb.append(", realm=").append(quote(realm))
        .append(", uri=").append(quote(uri))
        .append(", algorithm=").append(c.param("algorithm") == null ? "MD5" : c.param("algorithm"))
        .append(", nonce=").append(quote(nonce))
        .append(", response=").append(quote(response));
    if (c.param("opaque") != null) {
      sb.append(", opaque=").append(quote(c.param("opaque")));
    }
    if (qop) {
      sb.append(", qop=auth, nc=").append(ncText).append(", cnonce=").append(quote(cnonce));
    }
    if (userhash) {
      sb.append(", userhash=true");
    }
    return sb.toString();
  }

  /** The nonce of the Digest credentials {@code request} carries, or null. */
  private static String sentNonce(Request request) {
    String sent = request.headers().first("Authorization");
    if (sent == null || !sent.regionMatches(true, 0, "Digest ", 0, 7)) {
      return null;
    }
    List<Challenges.Challenge> parsed = Challenges.parse(List.of(sent));
    return parsed.isEmpty() ? null : parsed.get(0).param("nonce");
  }

  /** The Digest challenge with the strongest algorithm this class supports, or null. */
  static Challenges.Challenge strongest(List<Challenges.Challenge> challenges) {
    Challenges.Challenge best = null;
    int bestRank = -1;
    for (Challenges.Challenge c : challenges) {
      if (!c.scheme().equalsIgnoreCase("Digest") || c.param("nonce") == null) {
        continue;
      }
      String qop = c.param("qop");
      if (qop != null && !qopAuth(c)) {
        continue; // only auth-int offered: the body would have to be hashed, which a stream cannot be
      }
      String algorithm = algorithm(c);
      int rank = STRENGTH.indexOf(algorithm.endsWith("-SESS") ? algorithm.substring(0, algorithm.length() - 5) : algorithm);
      if (rank > bestRank) {
        best = c;
        bestRank = rank;
      }
    }
    return best;
  }

  private static String algorithm(Challenges.Challenge c) {
    String a = c.param("algorithm");
    return a == null ? "MD5" : a.toUpperCase(Locale.ROOT);
  }

  private static boolean qopAuth(Challenges.Challenge c) {
    String qop = c.param("qop");
    if (qop == null) {
      return false;
    }
    for (String option : qop.split(",")) {
      if (option.strip().equalsIgnoreCase("auth")) {
        return true;
      }
    }
    return false;
  }

  private static String hash(String algorithm, String text) {
    String jdkName = switch (algorithm) {
      case "MD5" -> "MD5";
      case "SHA-256" -> "SHA-256";
      case "SHA-512-256" -> "SHA-512/256";
      default -> throw new IllegalStateException("unsupported digest algorithm " + algorithm);
    };
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(jdkName).digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM lacks " + jdkName, e);
    }
  }

  /** The request-target of the request line: path and query. */
  static String requestTarget(URI url) {
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
  }

  private static String origin(URI url) {
    int port = url.getPort() != -1 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost().toLowerCase(Locale.ROOT) + ":" + port;
  }

  private static boolean isQuotable(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** RFC 8187's ext-value encoding: attr-chars as they are, every other UTF-8 byte as %XX. */
  private static String percentEncode(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$&+-.^_`|~".indexOf(c) >= 0) {
        sb.append((char) c);
      } else {
        sb.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
      }
    }
    return sb.toString();
  }

  private static String randomCnonce() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  @Override
  public String toString() {
    return "Auth.digest(" + user + ", ***)";
  }
}
