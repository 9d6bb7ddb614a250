// Webhook receivers that misbehave, on localhost: one that trickles its answer a byte a second (never
// idle long enough for an idle timeout, never done within a deadline) and an address that refuses
// connections. Each trickling connection records when it opened and when our side closed it.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TrickledConnection {
  openedAt: number;
  closedAt?: number;
}

/** Answers `HTTP/1.1 200 OK` and a header one byte a second, complete only after `seconds`. */
export async function startTricklingReceiver(seconds = 60) {
  const connections: TrickledConnection[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const connection: TrickledConnection = { openedAt: Date.now() };
    connections.push(connection);
    sockets.add(socket);
    const head = `HTTP/1.1 200 OK\r\nx-slow: ${'a'.repeat(seconds)}`;
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < head.length) socket.write(head[sent++]!);
      else socket.end('\r\ncontent-length: 0\r\n\r\n');
    }, 1_000);
    socket.on('data', () => {}); // the request is read and ignored
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      connection.closedAt = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A localhost URL nothing listens on: connecting to it is refused. */
export async function refusingUrl() {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/refused`;
}
