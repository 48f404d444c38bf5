/** C# names for the document's names, and text that is safe inside C# source. */

// The reserved keywords of C# 7: a parameter named like one gets an `@` (`@params`, `@event`).
const KEYWORDS = new Set(
  (
    'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum ' +
    'event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace ' +
    'new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc ' +
    'static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while'
  ).split(' '),
);

/** `game_player_id` → `GamePlayerId`, `gameRank` → `GameRank`, `rewrad_history` → `RewradHistory`: the words keep their spelling. */
export function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[0-9]/.test(joined) || joined === '' ? `_${joined}` : joined;
}

/** A parameter's name: `projectName`, `gameCode`, `@params`. */
export function camel(name: string): string {
  const p = pascal(name);
  const c = p.startsWith('_') ? p : p[0]!.toLowerCase() + p.slice(1);
  return KEYWORDS.has(c) ? `@${c}` : c;
}

/** A C# string literal: JSON's escapes are C#'s, and the characters C# takes for line ends are escaped too. */
export function literal(text: string): string {
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Lines of an XML doc comment (`/// …`), the text escaped, at the given indent. */
export function docComment(indent: string, lines: string[]): string[] {
  const escaped = lines
    .flatMap((line) => line.split(/\r\n|[\n\r\u0085\u2028\u2029]/))
    .map((line) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  if (escaped.length === 1) return [`${indent}/// <summary>${escaped[0]}</summary>`];
  return [`${indent}/// <summary>`, ...escaped.map((line) => `${indent}/// ${line}`.trimEnd()), `${indent}/// </summary>`];
}

/** A name not yet taken in `taken` (adds it): the name itself, else with 2, 3, … after it. */
export function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  taken.add(candidate);
  return candidate;
}
