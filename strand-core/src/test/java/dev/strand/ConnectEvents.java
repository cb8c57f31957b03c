package dev.strand;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The connect steps of calls as short lines ({@code start 127.0.0.1}, {@code failed 127.0.0.2 ...}, {@code won ::1}). */
final class ConnectEvents implements EventListener {
  final List<String> steps = new CopyOnWriteArrayList<>();

  @Override
  public void dnsEnd(Call call, long nanos, String host, List<java.net.InetAddress> addresses) {
    steps.add("resolved " + host + " " + addresses.stream().map(java.net.InetAddress::getHostAddress).toList());
  }

  @Override
  public void connectStart(Call call, long nanos, SocketAddress address) {
    steps.add("start " + host(address));
  }

  @Override
  public void connectEnd(Call call, long nanos, SocketAddress address) {
    steps.add("won " + host(address));
  }

  @Override
  public void connectFailed(Call call, long nanos, SocketAddress address, Throwable cause) {
    steps.add("failed " + host(address) + ": " + cause.getMessage());
  }

  private static String host(SocketAddress address) {
    return address instanceof InetSocketAddress a ? a.getAddress().getHostAddress() : address.toString();
  }
}
