/**
 * An answer that sends the user agent elsewhere instead of answering here: an OAuth authorization endpoint's
 * refusal, told to the client at its redirect URI (RFC 6749 §4.1.2.1). Thrown by the domain; an operation that
 * declares `redirect` in its route table answers it as a 302 to `location` (core/http/app.ts).
 */
export class RedirectAnswer extends Error {
  constructor(readonly location: string) {
    super('answered by a redirect');
    this.name = 'RedirectAnswer';
  }
}
