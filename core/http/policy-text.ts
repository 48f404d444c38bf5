import type { AuthRule, Ownership } from './operation.js';

/**
 * A policy in words, for the reference (the OpenAPI description of every operation) and the table of
 * docs/security.md, so what readers are told is what the authorization layer enforces.
 */
export function describePolicy(auth: AuthRule): string {
  if (auth === 'open') return 'Open: no token needed.';
  const kinds = auth.tokens.map((kind) => `\`${kind}\``).join(' or ');
  const who = `Requires a Bearer ${kinds} token${auth.role === 'admin' ? ' of an admin account' : ''}.`;
  const rules = auth.owns.map(describeOwnership).join(' ');
  const extra = [
    auth.movesValue && "Moves value: the merchant's suspension and token revocations are read on every call.",
    auth.whileSuspended && "A suspended merchant's console may still call it.",
  ].filter(Boolean);
  return [who, rules, ...extra].join(' ');
}

export function describeOwnership(rule: Ownership): string {
  switch (rule.rule) {
    case 'own':
      return "Acts on the caller's own records only.";
    case 'self':
      return `\`${rule.field}\` must be the signed-in player (a server names any user of its projects).`;
    case 'project':
      return `\`${rule.field}\` must name an existing project of the caller's merchant (a game token: of its game's merchant).`;
    case 'game':
      return `\`${rule.field}\` must name an existing game of the caller's merchant.`;
    case 'goods':
      return `\`${rule.field}\` must name existing goods of the caller's merchant.`;
    case 'record':
      return `\`${rule.field}\` must name a ${rule.record} whose owner (${rule.owner}) is the caller; others answer 404.`;
    case 'any':
      return `Any record: ${rule.why}.`;
  }
}
