// Who may hold one of the service's connections: sockets that say nothing
// must not lock real clients out. Node's own `maxConnections` refuses the newcomer, so 256 silent
// sockets kept open (reconnecting when closed) turned every CLI command away; here the newcomer
// stays and an idle connection makes room, and a connection that sends no byte is closed soon.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionGuard {
  /** connections open at once; past it an idle one is closed, or the newcomer when none is idle */
  max: number;
  /** a connection that has sent no byte by then is closed */
  firstByteTimeoutMs: number;
}

/** Keeps `server`'s connections within `guard` (instead of `server.maxConnections`). */
export function guardConnections(server: Server, guard: ConnectionGuard): void {
  // socket → requests in progress on it; a Map iterates in arrival order, so the oldest come first
  const open = new Map<Socket, number>();
  const forget = (socket: Socket) => open.delete(socket);

  server.on('connection', (socket: Socket) => {
    if (open.size >= guard.max) {
      const room = idlest(open);
      if (!room) return void socket.destroy();
      forget(room);
      room.destroy();
    }
    open.set(socket, 0);
    let judge: NodeJS.Immediate | undefined;
    const silent = setTimeout(() => {
      // after the event loop was held (a long synchronous write), timers run before the reads that
      // waited meanwhile: judge once those are in (the loop polls sockets before setImmediate's turn)
      judge = setImmediate(() => {
        if (socket.bytesRead === 0) socket.destroy();
      });
    }, guard.firstByteTimeoutMs);
    silent.unref();
    socket.once('close', () => {
      clearTimeout(silent);
      if (judge) clearImmediate(judge);
      forget(socket);
    });
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    open.set(socket, open.get(socket)! + 1);
    res.once('close', () => {
      const busy = open.get(socket);
      if (busy !== undefined) open.set(socket, busy - 1);
    });
  });
}

/**
 * The connection to close for a newcomer: the oldest that has sent nothing, else the oldest with
 * no request in progress (between keep-alive requests, or headers not done); none when all are busy.
 */
function idlest(open: Map<Socket, number>): Socket | undefined {
  let idle: Socket | undefined;
  for (const [socket, busy] of open) {
    if (busy > 0) continue;
    if (socket.bytesRead === 0) return socket;
    idle ??= socket;
  }
  return idle;
}
