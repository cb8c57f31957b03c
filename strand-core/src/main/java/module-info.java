/** Strand: an HTTP client. Only {@code dev.strand} is API; {@code dev.strand.internal.*} is not exported. */
module dev.strand {
  exports dev.strand;

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
  requires io.netty.transport.unix.common;
  requires static com.fasterxml.jackson.databind;
  requires static com.github.luben.zstd_jni;
  requires static com.aayushatharva.brotli4j;

  uses dev.strand.JsonCodec;
}
