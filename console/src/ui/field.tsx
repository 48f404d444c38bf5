import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { Done } from './status.js';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'date';
  autocomplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  required?: boolean;
  /** The message beside the field: the service's, or the schema's before sending. */
  error?: string | undefined;
  hint?: string;
  /** The label for screen readers only, where the table's headers show what the field is (a row of a table). */
  labelHidden?: boolean;
  onValue?: (value: string) => void;
}

/** A labelled input with its hint and its error, both tied to it for a screen reader. */
export function Field({ label, name, value, type = 'text', autocomplete, inputMode, required, error, hint, labelHidden, onValue }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id} class={labelHidden ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        value={value}
        // One of the text-like types; preact's typings discriminate input props by a literal type.
        type={type as 'text'}
        autocomplete={autocomplete}
        inputMode={inputMode}
        required={required}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => onValue?.((event.target as HTMLInputElement).value)}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

interface SelectProps {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onValue: (value: string) => void;
  error?: string | undefined;
}

export function Select({ label, name, value, options, onValue, error }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onValue((event.target as HTMLSelectElement).value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled multi-line input with its hint and its error, tied to it as Field's are. */
export function TextArea({
  label,
  name,
  value,
  onValue,
  error,
  rows = 3,
}: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  rows?: number;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onInput={(event) => onValue((event.target as HTMLTextAreaElement).value)}
      />
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A form's own message (not about one field), announced when it appears. */
export function FormError({ error }: { error?: string | undefined }) {
  return error ? (
    <p class="error form-error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A submit button that says when its call is running. */
export function Submit({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
      {busy ? 'Working…' : children}
    </button>
  );
}

/**
 * The end of a form: its own error, then its submit button with the success message beside it, so what a
 * submit caused shows where the studio is looking, not elsewhere on the page.
 */
export function FormEnd({
  busy,
  error,
  done,
  children,
}: {
  busy: boolean;
  error?: string | undefined;
  done?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <>
      <FormError error={error} />
      <div class="form-end">
        <Submit busy={busy}>{children}</Submit>
        <Done message={done} />
      </div>
    </>
  );
}
