package dev.strand.internal.exchange;

import dev.strand.internal.pool.PooledConnection;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import javax.net.ssl.SSLSession;

/**
 * What the engine's pool holds: an HTTP/1.1 connection (capacity 1) or an HTTP/2 connection
 * (capacity = the server's max concurrent streams), or an HTTP/3 one from the {@code strand-http3}
 * module. All start exchanges on their event loop.
 */
public abstract class NettyConnection extends PooledConnection {
  private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();

  /** A number unique in the process, for event listeners to tell connections apart. */
  final long id = IDS.incrementAndGet();

  /** The session of the channel's TLS handler once its handshake is done, or {@code null} in cleartext. */
  protected static SSLSession tlsSession(Channel ch) {
    SslHandler tls = ch.pipeline().get(SslHandler.class);
    return tls == null ? null : tls.engine().getSession();
  }

  /** The protocol this connection speaks. */
  public abstract dev.strand.Version version();

  /** The event loop the connection's state is confined to. */
  public abstract EventLoop eventLoop();

  /** Starts {@code x} on this connection; called on {@link #eventLoop()} for each slot the pool handed out. */
  public abstract void begin(Exchange x);

  /** The caller cancelled {@code x}'s future while it ran on this connection (any thread). */
  public abstract void abort(Exchange x);
}
