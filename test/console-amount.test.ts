import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coinOf, coinText, formatAmount, groupDigits, parseAmount, payoutCoinOf, SUI, typedAmount } from '../console/src/ui/amount.js';

/** The console's amounts (console/src/ui/amount.ts): base units shown beside the coin's units, typed in either, exactly. */
describe('console amounts', () => {
  it('names a coin by its type, SUI with MIST', () => {
    expect(SUI).toEqual({ symbol: 'SUI', decimals: 9, baseName: 'MIST' });
    expect(coinOf('0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI', 9).baseName).toBe('MIST');
    expect(coinOf('0xabc::usdc::USDC', 6)).toEqual({ symbol: 'USDC', decimals: 6, baseName: 'base units' });
  });

  it('shows and reads a payout coin of unknown decimals in base units alone, and SUI in both', () => {
    expect(payoutCoinOf('0x2::sui::SUI')).toBe(SUI);
    expect(payoutCoinOf(`${'0'.repeat(63)}2::sui::SUI`)).toBe(SUI);
    const usdc = payoutCoinOf('0xABC::usdc::USDC');
    expect(formatAmount('1500000', usdc)).toBe('1,500,000 base units of USDC');
    expect(parseAmount('1,500,000', usdc, 'coin')).toEqual({ ok: true, base: '1500000' });
    expect(parseAmount('1.5', usdc, 'coin')).toMatchObject({ ok: false });
    expect(parseAmount('2 USDC', usdc, 'coin')).toEqual({ ok: false, error: "the console does not know USDC's decimals: enter base units" });
    expect(typedAmount('1500000', usdc, 'coin')).toBe('1500000');
  });

  it('shows base units in the coin beside them', () => {
    expect(formatAmount('100000000', SUI)).toBe('0.1 SUI (100,000,000 MIST)');
    expect(formatAmount('1000000000', SUI)).toBe('1 SUI (1,000,000,000 MIST)');
    expect(formatAmount('1', SUI)).toBe('0.000000001 SUI (1 MIST)');
    expect(formatAmount('0', SUI)).toBe('0 SUI (0 MIST)');
    expect(formatAmount(250, coinOf('0xabc::usdc::USDC', 6))).toBe('0.00025 USDC (250 base units)');
    expect(formatAmount('18446744073709551615', SUI)).toBe('18,446,744,073.709551615 SUI (18,446,744,073,709,551,615 MIST)');
    expect(formatAmount('12', coinOf('0xabc::t::T', 0))).toBe('12 T (12 base units)');
    expect(formatAmount('n/a', SUI)).toBe('n/a');
    expect(groupDigits('1234567')).toBe('1,234,567');
    expect(coinText('1500000000', 9)).toBe('1.5');
  });

  it('reads an amount typed in the coin or in base units, a suffix overriding the unit', () => {
    expect(parseAmount('0.1', SUI, 'coin')).toEqual({ ok: true, base: '100000000' });
    expect(parseAmount(' .5 ', SUI, 'coin')).toEqual({ ok: true, base: '500000000' });
    expect(parseAmount('2', SUI, 'coin')).toEqual({ ok: true, base: '2000000000' });
    expect(parseAmount('1,000.25', SUI, 'coin')).toEqual({ ok: true, base: '1000250000000' });
    expect(parseAmount('100000000', SUI, 'base')).toEqual({ ok: true, base: '100000000' });
    expect(parseAmount('100,000,000 MIST', SUI, 'coin')).toEqual({ ok: true, base: '100000000' });
    expect(parseAmount('0.1 sui', SUI, 'base')).toEqual({ ok: true, base: '100000000' });
    expect(parseAmount('0.000000001', SUI, 'coin')).toEqual({ ok: true, base: '1' });
    expect(parseAmount('007', SUI, 'base')).toEqual({ ok: true, base: '7' });
    expect(parseAmount('18446744073.709551615', SUI, 'coin')).toEqual({ ok: true, base: '18446744073709551615' });
  });

  it('refuses more decimals than the coin has, fractions of base units, and anything but a number', () => {
    expect(parseAmount('0.0000000001', SUI, 'coin')).toEqual({ ok: false, error: 'SUI has 9 decimals: at most 9 digits after the point' });
    expect(parseAmount('0.1', SUI, 'base')).toEqual({ ok: false, error: 'MIST are whole: enter an integer, or switch to SUI' });
    expect(parseAmount('1.5', coinOf('0xabc::t::T', 0), 'coin')).toEqual({ ok: false, error: 'T has no decimals' });
    expect(parseAmount('0,1', SUI, 'coin')).toEqual({ ok: false, error: 'use a point for decimals, such as 0.1' });
    expect(parseAmount('', SUI, 'coin')).toEqual({ ok: false, error: 'enter an amount' });
    expect(parseAmount('-1', SUI, 'coin')).toEqual({ ok: false, error: 'an amount cannot be negative' });
    expect(parseAmount('1e9', SUI, 'coin').ok).toBe(false);
    expect(parseAmount('.', SUI, 'coin').ok).toBe(false);
    expect(parseAmount('12 ETH', SUI, 'coin')).toEqual({ ok: false, error: 'unknown unit "ETH": use SUI or MIST' });
  });

  it('round-trips any u64 through the coin text, exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.integer({ min: 0, max: 18 }), (base, decimals) => {
        const coin = coinOf('0xabc::t::T', decimals);
        expect(parseAmount(coinText(base, decimals), coin, 'coin')).toEqual({ ok: true, base: base.toString() });
        expect(parseAmount(typedAmount(base.toString(), coin, 'coin'), coin, 'coin')).toEqual({ ok: true, base: base.toString() });
        expect(parseAmount(typedAmount(base.toString(), coin, 'base'), coin, 'base')).toEqual({ ok: true, base: base.toString() });
      }),
    );
  });
});
