/**
 * Strand's test support: loopback HTTP/1.1, HTTP/2 and HTTP/3 servers, proxies, a throw-away PKI and JUnit
 * extensions. The HTTP/3 server needs Netty's QUIC and HTTP/3 codecs, the extensions need JUnit Jupiter; both
 * are optional. {@code CapturingLeakDetector} reads Netty's buffer leak detector reflectively: on the module path
 * that takes {@code --add-opens io.netty.buffer/io.netty.buffer=dev.strand.testkit} (or {@code =ALL-UNNAMED} when
 * the testkit is on the class path, as in strand-core's module-path test run).
 */
module dev.strand.testkit {
  exports dev.strand.testkit;
  exports dev.strand.testkit.tls;

  requires transitive io.netty.buffer;
  requires transitive io.netty.codec;
  requires transitive io.netty.codec.http;
  requires transitive io.netty.codec.http2;
  requires transitive io.netty.common;
  requires transitive io.netty.handler;
  requires transitive io.netty.transport;
  requires io.netty.transport.classes.epoll;
  requires org.bouncycastle.pkix;
  requires org.bouncycastle.provider;
  requires static transitive io.netty.codec.classes.quic;
  requires static transitive io.netty.codec.http3;
  requires static transitive org.junit.jupiter.api;
}
