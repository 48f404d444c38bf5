import { createServer } from 'node:net';
import { StartRefused } from './start-refused.js';

/**
 * Refuses the start when HOST:PORT cannot be listened on, checked before anything is started: found only by the
 * HTTP server at the end of start-up, it would cost the whole start (DynamoDB Local, the console's build) and
 * leave them to stop. The HTTP server listens there a few seconds later; one that takes the port meanwhile is
 * still refused then, by the server's own error.
 */
export function checkPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(new StartRefused([listenProblem(host, port, error)])));
    probe.listen(port, host, () => probe.close(() => resolve()));
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
