/**
 * The development stand-ins `npm start` runs (the development chain in place of a Sui network, the development
 * sign-in provider in place of Google and the like) answer on the machine's loopback only. A deployed stage
 * refuses a setting that names a loopback host: such a setting can only be a stand-in's, or a mistake, and in a
 * stage either would take payments or sign-ins from something no player can reach.
 */

/** localhost and its subdomains, 127.0.0.0/8, ::1 and the unspecified addresses. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || ['[::1]', '0.0.0.0', '[::]'].includes(host);
}

/** Throws, naming the setting and the address, when any of `urls` is a loopback address. */
export function refuseStandIns(setting: string, urls: readonly (string | undefined)[]): void {
  const loopback = urls.find((url) => url !== undefined && isLoopbackUrl(url));
  if (loopback) {
    throw new Error(`${setting}: ${loopback} is a loopback address, a development stand-in of npm start; a deployed stage takes real endpoints only`);
  }
}
