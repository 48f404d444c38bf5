import type { ComponentChildren } from 'preact';
import { useId, useRef } from 'preact/hooks';

interface ConfirmProps {
  /** The button that opens the question. */
  label: string;
  /** What will happen, asked before it does. */
  question: ComponentChildren;
  /** The confirming button's label ("Revoke", "Refund 3 SUI"). */
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  danger?: boolean;
}

/**
 * A button whose action is asked for again in a modal dialog (the browser's own `<dialog>`: focus moves into it
 * and back, Escape cancels). Every action that moves money or revokes access goes through one.
 */
export function ConfirmButton({ label, question, confirm, busy = false, onConfirm, danger = true }: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  return (
    <>
      <button
        type="button"
        class={danger ? 'danger' : undefined}
        disabled={busy}
        aria-busy={busy ? 'true' : undefined}
        onClick={() => dialog.current?.showModal()}
      >
        {busy ? 'Working…' : label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-question`}>
        <h2 id={`${id}-title`}>{label}?</h2>
        <div id={`${id}-question`}>{question}</div>
        <div class="actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            class={danger ? 'danger' : undefined}
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirm}
          </button>
        </div>
      </dialog>
    </>
  );
}
