package dev.strand.internal.connect;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The event-loop threads and the matching socket types: native epoll when available, else NIO. */
public final class EventLoops {
  public final MultiThreadIoEventLoopGroup group;
  final Class<? extends SocketChannel> channelType;
  /** For QUIC. */
  public final Class<? extends DatagramChannel> datagramType;
  /** The channel for Unix domain sockets: epoll's, or NIO's (JDK 16's {@code UnixDomainSocketAddress}). */
  final Class<? extends Channel> domainChannelType;
  /** {@code "epoll"} or {@code "nio"}, as {@link dev.strand.ClientStats#transport()} reports it. */
  public final String name;

  private EventLoops(MultiThreadIoEventLoopGroup group, Class<? extends SocketChannel> channelType,
      Class<? extends DatagramChannel> datagramType, Class<? extends Channel> domainChannelType, String name) {
    this.group = group;
    this.channelType = channelType;
    this.datagramType = datagramType;
    this.domainChannelType = domainChannelType;
    this.name = name;
  }

  public static EventLoops create(int threads, boolean preferNative) {
    boolean epoll = preferNative && Epoll.isAvailable();
    IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    // Daemon threads: a transport the user forgot to close must not keep the JVM alive.
    DefaultThreadFactory threadFactory = new DefaultThreadFactory("strand-io", true);
    MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, threadFactory, factory);
    return epoll
        ? new EventLoops(group, EpollSocketChannel.class, EpollDatagramChannel.class, EpollDomainSocketChannel.class, "epoll")
        : new EventLoops(group, NioSocketChannel.class, NioDatagramChannel.class, NioDomainSocketChannel.class, "nio");
  }

  /** The address of a Unix domain socket, in the form this group's channels take. */
  SocketAddress domainAddress(Path socket) {
    return domainChannelType == EpollDomainSocketChannel.class
        ? new DomainSocketAddress(socket.toString())
        : UnixDomainSocketAddress.of(socket);
  }

  public void shutdown() {
    var done = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    if (!group.next().inEventLoop()) {
      done.awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }
}
