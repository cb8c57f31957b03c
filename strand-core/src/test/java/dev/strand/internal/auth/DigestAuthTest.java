package dev.strand.internal.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The digest computation against RFC 7616's worked examples (section 3.9.1), and challenge parsing. */
class DigestAuthTest {
  private static final String RFC_CHALLENGE = "realm=\"http-auth@example.org\", qop=\"auth, auth-int\", "
      + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\"";
  private static final String CNONCE = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";
  private final DigestAuth mufasa = new DigestAuth("Mufasa", "Circle of Life", () -> CNONCE);

  private static Challenges.Challenge only(String value) {
    List<Challenges.Challenge> all = Challenges.parse(List.of(value));
    assertEquals(1, all.size(), all.toString());
    return all.get(0);
  }

  private static String param(String authorization, String name) {
    return only(authorization).param(name);
  }

  @Test
  void md5MatchesTheRfcExample() {
    String a = mufasa.authorization(only("Digest " + RFC_CHALLENGE + ", algorithm=MD5"), "GET", "/dir/index.html", 1,
        CNONCE);
    assertEquals("8ca523f5e9506fed4657c9700eebdbec", param(a, "response"));
    assertEquals("00000001", param(a, "nc"));
    assertEquals("auth", param(a, "qop"));
    assertEquals("Mufasa", param(a, "username"));
    assertEquals("FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", param(a, "opaque"));
  }

  @Test
  void sha256MatchesTheRfcExample() {
    String a = mufasa.authorization(only("Digest " + RFC_CHALLENGE + ", algorithm=SHA-256"), "GET", "/dir/index.html",
        1, CNONCE);
    assertEquals("753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", param(a, "response"));
    assertEquals("SHA-256", param(a, "algorithm"));
  }

  @Test
  void theStrongestChallengeIsTakenWhateverItsPlace() {
    List<Challenges.Challenge> offered = Challenges.parse(List.of(
        "Digest realm=\"r\", nonce=\"a\", algorithm=MD5, qop=\"auth\", Basic realm=\"r\"",
        "Digest realm=\"r\", nonce=\"b\", algorithm=SHA-256, qop=\"auth\""));
    assertEquals(3, offered.size());
    assertEquals("b", DigestAuth.strongest(offered).param("nonce"));
  }

  @Test
  void unsupportedChallengesAreNotAnswered() {
    assertNull(DigestAuth.strongest(Challenges.parse(List.of("Digest realm=\"r\", nonce=\"n\", qop=\"auth-int\""))));
    assertNull(DigestAuth.strongest(Challenges.parse(List.of("Digest realm=\"r\", nonce=\"n\", algorithm=SHA-512"))));
    assertNull(DigestAuth.strongest(Challenges.parse(List.of("Basic realm=\"r\""))));
  }

  @Test
  void quotedStringsKeepCommasAndEscapes() {
    Challenges.Challenge c = only("Digest realm=\"a, \\\"b\\\"\", nonce=x");
    assertEquals("a, \"b\"", c.param("realm"));
    assertEquals("x", c.param("nonce"));
  }

  @Test
  void sessAndUserhashAndNonAsciiNames() {
    DigestAuth jose = new DigestAuth("José", "pw", () -> "c");
    String a = jose.authorization(only("Digest realm=\"r\", nonce=\"n\", qop=auth, algorithm=SHA-256-sess"), "GET", "/",
        2, "c");
    assertEquals("Jos%C3%A9", param(a, "username*").substring("UTF-8''".length()));
    assertEquals("00000002", param(a, "nc"));
    String hashed = jose.authorization(only("Digest realm=\"r\", nonce=\"n\", qop=auth, userhash=true"), "GET", "/", 1,
        "c");
    assertEquals(32, param(hashed, "username").length()); // MD5("José:r") in hex
    assertTrue(hashed.endsWith("userhash=true"));
  }

  @Test
  void withoutQopTheRfc2069FormIsSent() {
    String a = mufasa.authorization(only("Digest realm=\"r\", nonce=\"n\""), "GET", "/", 1, CNONCE);
    assertNull(param(a, "qop"));
    assertNull(param(a, "nc"));
    assertNull(param(a, "cnonce"));
  }
}
