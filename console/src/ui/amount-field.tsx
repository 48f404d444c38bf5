import { useId } from 'preact/hooks';
import { type AmountUnit, type Coin, formatAmount, parseAmount } from './amount.js';

/** What an amount field holds while it is typed: the text and the unit it is read in. */
export interface TypedAmount {
  text: string;
  unit: AmountUnit;
}

export const emptyAmount = (unit: AmountUnit = 'coin'): TypedAmount => ({ text: '', unit });

/**
 * A labelled amount input with its unit beside it (the coin's, `SUI`, or its base units, `MIST`): what was typed
 * is shown converted below it as the studio types (`= 0.1 SUI (100,000,000 MIST)`), and a typing mistake (too many
 * decimals, a comma for a point) beside it before anything is sent. `error` is the service's or the schema's.
 */
export function AmountField({
  label,
  name,
  coin,
  value,
  onValue,
  error,
  labelHidden,
}: {
  label: string;
  name: string;
  coin: Coin;
  value: TypedAmount;
  onValue: (value: TypedAmount) => void;
  error?: string | undefined;
  labelHidden?: boolean;
}) {
  const id = useId();
  const parsed = value.text.trim() ? parseAmount(value.text, coin, value.unit) : undefined;
  // A typing mistake is named as such; the schema's range message stays for an amount that reads.
  const message = parsed && !parsed.ok ? parsed.error : error && !value.text.trim() ? 'enter an amount' : error;
  const described = [`${id}-hint`, message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id} class={labelHidden ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <div class="amount">
        <input
          id={id}
          name={name}
          value={value.text}
          inputMode="decimal"
          autocomplete="off"
          aria-invalid={message ? 'true' : undefined}
          aria-describedby={described}
          onInput={(event) => onValue({ ...value, text: (event.target as HTMLInputElement).value })}
        />
        {coin.baseOnly ? (
          <span class="unit">base units</span>
        ) : (
          <select
            aria-label={`Unit of ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
            name={`${name}-unit`}
            value={value.unit}
            onChange={(event) => onValue({ ...value, unit: (event.target as HTMLSelectElement).value as AmountUnit })}
          >
            <option value="coin">{coin.symbol}</option>
            <option value="base">{coin.baseName}</option>
          </select>
        )}
      </div>
      <p class="hint" id={`${id}-hint`} aria-live="polite">
        {parsed?.ok ? `= ${formatAmount(parsed.base, coin)}` : hintOf(coin)}
      </p>
      {message && (
        <p class="error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

/** What the field takes, before anything is typed. */
const hintOf = (coin: Coin) =>
  coin.baseOnly
    ? `In base units of ${coin.symbol} (the console does not know its decimals)`
    : `In ${coin.symbol} (up to ${coin.decimals} decimals) or in ${coin.baseName}`;

/**
 * The base units of a typed amount, for the form's body: canonical decimal text, or what was typed when it does
 * not read (the schema then names the field, and the field shows the typing mistake).
 */
export function baseOf(value: TypedAmount, coin: Coin): string {
  const parsed = parseAmount(value.text, coin, value.unit);
  return parsed.ok ? parsed.base : value.text;
}
