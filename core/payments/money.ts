/**
 * Money is integers of a coin's base units (1 SUI = 10^9 MIST), kept as decimal text of the integer and
 * computed with BigInt; it is shown as decimal text with `precison` decimals. Never a float.
 */
export function formatUnits(baseUnits: bigint | number | string, precision: number): string {
  const value = BigInt(baseUnits);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(precision + 1, '0');
  const whole = digits.slice(0, digits.length - precision);
  const fraction = digits.slice(digits.length - precision).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
