/**
 * HTTP/3 over QUIC for Strand: strand-core finds it as a service when a client asks for
 * {@code VersionPolicy.HTTP_3_ONLY}, {@code VersionPolicy.HTTP_3_FIRST} or {@code VersionPolicy.HTTP_3_ALT_SVC}. No
 * package is API; core exports its engine's internals to this module alone
 * (hence the name {@code dev.strand.http3}).
 */
module dev.strand.http3 {
  requires dev.strand;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.classes.quic;
  requires io.netty.codec.http3;
  requires io.netty.common;
  requires io.netty.transport;

  provides dev.strand.internal.netty.Http3Provider with dev.strand.http3.internal.QuicHttp3Provider;
}
