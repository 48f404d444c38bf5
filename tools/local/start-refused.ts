/**
 * Why `npm start` will not start: a setting that does not parse, a port in use, a DATA_DIR another server
 * holds. Each line names the variable (or the port, or the lock) and what is wrong, and is all the server
 * prints of it: these are the user's to fix, so no stack is shown.
 */
export class StartRefused extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'StartRefused';
  }
}
