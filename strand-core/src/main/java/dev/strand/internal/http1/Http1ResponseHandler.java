package dev.strand.internal.http1;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** The last handler of a connection's pipeline: hands decoded response parts to the connection. */
public final class Http1ResponseHandler extends ChannelInboundHandlerAdapter {
  final Http1Connection connection;

  Http1ResponseHandler(Http1Connection connection) {
    this.connection = connection;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    connection.onRead(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    connection.onReadComplete();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    connection.onInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    connection.onException(cause);
  }
}
