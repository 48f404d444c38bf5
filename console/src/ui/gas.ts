import { groupDigits } from './amount.js';

/**
 * Gas in MIST (decimal text, 10^-9 SUI) as SUI with all nine decimals, converted on the text with BigInt so it
 * is exact: `1234567891` → `1.234567891 SUI`. Text that is not an integer (an unexpected answer) shows as it is.
 */
export function suiOfMist(mist: string): string {
  if (!/^\d+$/.test(mist)) return mist;
  const digits = BigInt(mist).toString().padStart(10, '0');
  return `${groupDigits(digits.slice(0, -9))}.${digits.slice(-9)} SUI`;
}
