import { createServer } from 'node:net';
import { StartRefused } from './start-refused.js';

/**
 * Refuses the start when HOST:PORT cannot be listened on, checked before anything is started: found only by the
 * HTTP server at the end of start-up, it would cost the whole start (DynamoDB Local, the console's build) and
 * leave them to stop. The port stays held until `release()`, called just before the HTTP server listens: the
 * parts started meanwhile (DynamoDB Local, the development chain) take ports of the system's choosing, which could
 * otherwise be this one, free again between a probe and the listen.
 */
export function reservePort(host: string, port: number): Promise<{ release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    // A client that connects early (a health probe) is turned away at once: the holder answers nothing.
    const holder = createServer((socket) => socket.destroy());
    holder.once('error', (error: NodeJS.ErrnoException) => reject(new StartRefused([listenProblem(host, port, error)])));
    holder.listen(port, host, () => {
      // A start that fails before the release must not be kept alive by the holder.
      holder.unref();
      resolve({ release: () => new Promise<void>((done) => holder.close(() => done())) });
    });
  });
}

/** What an error listening on HOST:PORT means, naming the variable to change. */
export function listenProblem(host: string, port: number, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `PORT: ${port} is in use on ${host} (another server listens there); stop it, or set PORT to a free port`;
    case 'EACCES':
      return `PORT: ${port} may not be listened on by this user (ports below 1024 need privileges); set PORT to another`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `HOST: ${host} is not an address of this machine (${error.code}); set HOST to one, e.g. 127.0.0.1`;
    default:
      return `PORT: cannot listen on ${host}:${port} (${error.code ?? error.message})`;
  }
}
