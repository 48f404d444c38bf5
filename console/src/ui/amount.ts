/**
 * Amounts of a coin, exactly: the service keeps them in base units (decimal text, up to a u64), a studio thinks
 * in the coin (`0.1 SUI`). Both conversions work on the decimal text with BigInt, never a float, so
 * `0.1 SUI` is 100000000 MIST and never 99999999.
 */

/** A coin as the console shows its amounts: its symbol, its decimals and the name of its base unit. */
export interface Coin {
  symbol: string;
  decimals: number;
  /** The base unit's name (`MIST` for SUI, else `base units`). */
  baseName: string;
  /** Set when the coin's decimals are unknown: its amounts are shown and typed in base units alone. */
  baseOnly?: true;
}

/** The coin of a Move coin type (`0x2::sui::SUI`) with `decimals` decimals: its symbol is the type's last name. */
export function coinOf(coinType: string, decimals: number): Coin {
  const symbol = coinType.split('::').at(-1) || 'coin';
  const sui = /^0x0*2::sui::SUI$/i.test(coinType);
  return { symbol, decimals, baseName: sui && decimals === 9 ? 'MIST' : 'base units' };
}

/** SUI: the payout coin of reward tables when the stage names no other (9 decimals). */
export const SUI: Coin = coinOf('0x2::sui::SUI', 9);

/**
 * The payout coin of reward tables, from the type the service names (`coin_type`): SUI, whose decimals are known,
 * or any other coin in its base units alone, since its decimals live on chain where the console does not look.
 */
export function payoutCoinOf(coinType: string): Coin {
  if (/^(0x)?0*2::sui::SUI$/i.test(coinType)) return SUI;
  return { symbol: coinType.split('::').at(-1) || 'coin', decimals: 0, baseName: 'base units', baseOnly: true };
}

/** Digits grouped by three with commas: `100000000` → `100,000,000`. */
export const groupDigits = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Base units as the coin's decimal text, without trailing zeros: `100000000` with 9 decimals → `0.1`. */
export function coinText(base: string | bigint, decimals: number): string {
  const digits = BigInt(base).toString();
  const negative = digits.startsWith('-');
  const abs = negative ? digits.slice(1) : digits;
  const padded = abs.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = decimals > 0 ? padded.slice(-decimals).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${groupDigits(whole)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount in base units as a studio reads it: `0.1 SUI (100,000,000 MIST)`. Text that is not an integer (an
 * unexpected answer) is shown as it is.
 */
export function formatAmount(base: string | bigint | number, coin: Coin): string {
  const text = String(base);
  if (!/^-?\d+$/.test(text)) return text;
  if (coin.baseOnly) return `${groupDigits(BigInt(text).toString())} base units of ${coin.symbol}`;
  return `${coinText(text, coin.decimals)} ${coin.symbol} (${groupDigits(BigInt(text).toString())} ${coin.baseName})`;
}

/** Which unit a typed amount is in: the coin's (`0.1`) or its base units (`100000000`). */
export type AmountUnit = 'coin' | 'base';

export type ParsedAmount = { ok: true; base: string } | { ok: false; error: string };

/**
 * A typed amount as base units (canonical decimal text). `unit` says how a bare number is read; a suffix
 * overrides it (`0.1 SUI`, `100000000 MIST`). Commas may group thousands (`1,000`), never mark decimals; more
 * decimals than the coin has are refused, as is anything but digits.
 */
export function parseAmount(typed: string, coin: Coin, unit: AmountUnit): ParsedAmount {
  let text = typed.trim().replace(/\s+/g, ' ');
  if (!text) return { ok: false, error: 'enter an amount' };
  let read = coin.baseOnly ? 'base' : unit;
  const suffix = / ?([A-Za-z][A-Za-z ]*)$/.exec(text);
  if (suffix) {
    const name = suffix[1]!.trim().toLowerCase();
    if (name === coin.symbol.toLowerCase() && coin.baseOnly)
      return { ok: false, error: `the console does not know ${coin.symbol}'s decimals: enter base units` };
    if (name === coin.symbol.toLowerCase()) read = 'coin';
    else if (name === coin.baseName.toLowerCase() || name === 'base units' || name === 'base unit') read = 'base';
    else return { ok: false, error: `unknown unit "${suffix[1]!.trim()}": use ${coin.symbol} or ${coin.baseName}` };
    text = text.slice(0, suffix.index).trim();
  }
  if (text.startsWith('-')) return { ok: false, error: 'an amount cannot be negative' };
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/.exec(text);
  if (!match || (match[1] === undefined && !match[2])) {
    if (/^\d+,\d{1,2}$/.test(text) || /,\d{0,2}$/.test(text)) return { ok: false, error: 'use a point for decimals, such as 0.1' };
    return { ok: false, error: `expected a number such as 0.1 ${coin.symbol}` };
  }
  const whole = (match[1] ?? '0').replaceAll(',', '');
  const fraction = match[2] ?? '';
  if (read === 'base') {
    if (fraction.replace(/0+$/, '')) return { ok: false, error: `${coin.baseName} are whole: enter an integer, or switch to ${coin.symbol}` };
    return { ok: true, base: BigInt(whole).toString() };
  }
  if (fraction.length > coin.decimals)
    return {
      ok: false,
      error:
        coin.decimals === 0
          ? `${coin.symbol} has no decimals`
          : `${coin.symbol} has ${coin.decimals} decimals: at most ${coin.decimals} digit${coin.decimals === 1 ? '' : 's'} after the point`,
    };
  return { ok: true, base: BigInt(whole + fraction.padEnd(coin.decimals, '0')).toString() };
}

/** Base units as typed text in `unit` (the coin's decimals without grouping, or the integer): what an input shows. */
export const typedAmount = (base: string, coin: Coin, unit: AmountUnit) =>
  unit === 'base' || coin.baseOnly ? base : coinText(base, coin.decimals).replaceAll(',', '');
