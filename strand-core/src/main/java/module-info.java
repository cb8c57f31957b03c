/**
 * Strand: an HTTP client. {@code dev.strand} is the API, {@code dev.strand.spi} the service provider
 * interface for transports; {@code dev.strand.internal.*} is not exported.
 */
module dev.strand {
  exports dev.strand;
  // For transport implementers (Transport, ResponseBody, StreamingResponses); users need not import it.
  exports dev.strand.spi;
  // The engine's pieces the HTTP/3 module (dev.strand:strand-http3) builds on; no one else sees them.
  exports dev.strand.internal.connect to dev.strand.http3;
  exports dev.strand.internal.exchange to dev.strand.http3;
  exports dev.strand.internal.http2 to dev.strand.http3;
  exports dev.strand.internal.netty to dev.strand.http3;
  exports dev.strand.internal.pool to dev.strand.http3;
  exports dev.strand.internal.tls to dev.strand.http3;

  uses dev.strand.internal.netty.Http3Provider;

  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.compression;
  requires io.netty.codec.http;
  requires io.netty.codec.http2;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.handler.proxy;
  requires io.netty.resolver;
  requires io.netty.transport;
  requires io.netty.transport.classes.epoll;
  // io_uring, when asked for with -Dstrand.io=io_uring (EventLoops); without it, epoll or NIO.
  requires static io.netty.transport.classes.io_uring;
  requires io.netty.transport.unix.common;
  requires static com.fasterxml.jackson.databind;
  requires static com.github.luben.zstd_jni;
  requires static com.aayushatharva.brotli4j;

  uses dev.strand.JsonCodec;
}
