import { once } from 'node:events';
import type { Socket } from 'node:net';

/**
 * Sends 1 MiB chunks of a chunked body (never its last chunk) on a raw connection while `more(bytes sent so far)`
 * and the connection is open. A connection closed or reset while a write waits ends the sending: its error is the
 * caller's to read from the socket, not this loop's.
 */
export async function sendChunks(socket: Socket, more: (sent: number) => boolean) {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let sent = 0; more(sent) && !socket.destroyed; sent += chunk.length) {
    socket.write(`${chunk.length.toString(16)}\r\n`);
    socket.write(chunk);
    if (!socket.write('\r\n')) await Promise.race([once(socket, 'drain'), once(socket, 'close')]).catch(() => undefined);
  }
}
