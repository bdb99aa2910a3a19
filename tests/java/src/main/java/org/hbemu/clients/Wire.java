package org.hbemu.clients;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.THttpClient;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * A client connection in one wire mode, "<buffered|framed>-<binary|compact>" over a socket or
 * "http-binary" (one POST per call), opened the way HBase's own demo clients open it.
 */
final class Wire implements AutoCloseable {
  static final int TIMEOUT_MS = 30000;

  final String mode;
  final TProtocol protocol;
  private final TTransport transport;

  Wire(String host, int port, String mode) throws TTransportException {
    this.mode = mode;
    String[] parts = mode.split("-");
    if (parts.length != 2) throw new IllegalArgumentException("wire mode " + mode);
    switch (parts[0]) {
      case "http": {
        THttpClient http = new THttpClient("http://" + host + ":" + port + "/");
        http.setConnectTimeout(TIMEOUT_MS);
        http.setReadTimeout(TIMEOUT_MS);
        transport = http;
        break;
      }
      case "buffered":  // TSocket buffers its streams: the classic unframed transport
        transport = new TSocket(new TConfiguration(), host, port, TIMEOUT_MS);
        break;
      case "framed":
        transport = new TFramedTransport(new TSocket(new TConfiguration(), host, port, TIMEOUT_MS));
        break;
      default:
        throw new IllegalArgumentException("wire mode " + mode);
    }
    switch (parts[1]) {
      case "binary":
        protocol = new TBinaryProtocol(transport);
        break;
      case "compact":
        protocol = new TCompactProtocol(transport);
        break;
      default:
        throw new IllegalArgumentException("wire mode " + mode);
    }
    transport.open();
  }

  @Override
  public void close() {
    transport.close();
  }
}
