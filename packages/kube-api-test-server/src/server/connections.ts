import type net from 'node:net';

/**
 * The TCP connections a server accepted: counted (a client that keeps its connections alive
 * opens few), refused while the server is down (fault `down`), and all closed at once when it
 * goes down or stops.
 */
export class Connections {
  private readonly open = new Set<net.Socket>();
  private accepted = 0;

  constructor(private readonly isDown: () => boolean) {}

  /** The server's `connection` listener. */
  readonly onConnection = (socket: net.Socket): void => {
    if (this.isDown()) {
      socket.destroy();
      return;
    }
    this.accepted++;
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
  };

  /** Connections accepted since start. */
  get count(): number {
    return this.accepted;
  }

  /** Destroys every open connection. */
  closeAll(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }
}
