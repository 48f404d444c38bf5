import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, type Payload, unwrap } from '@game-platform/client';
import type * as z from 'zod/mini';
import { errorsOfAnswer, errorsOfSchema, type FieldErrors } from '../errors.js';

/** What openapi-fetch resolves a call to. */
type Answer<Data> = Promise<{ data?: Data; error?: unknown; response: Response }>;

/**
 * A call the user starts (a form, a button): `busy` while it runs, `errors` from its answer, and what it
 * answered (its payload: the merchant envelope's `data`, as `unwrap` answers it). Only one runs at a time: a
 * second start while busy is ignored.
 */
export function useAction<Args extends unknown[], Data>(call: (...args: Args) => Answer<Data>) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const run = useCallback(
    async (...args: Args): Promise<Payload<Data> | undefined> => {
      if (busy) return undefined;
      setBusy(true);
      setErrors({});
      try {
        return await unwrap(call(...args));
      } catch (error) {
        setErrors(errorsOfAnswer(error));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [busy, call],
  );
  return { run, busy, errors, setErrors };
}

/**
 * useAction for a call that sends one body the service checks with `schema`: `submit(values)` checks the values
 * with that schema first (each field's first message beside it, nothing sent), then sends what it parsed.
 */
export function useCheckedAction<Body, Data>(schema: z.ZodMiniType<Body>, call: (body: Body) => Answer<Data>) {
  const action = useAction(call);
  const submit = (values: unknown): Promise<Payload<Data> | undefined> => {
    const invalid = errorsOfSchema(schema, values);
    if (!invalid) return action.run(schema.parse(values));
    action.setErrors(invalid);
    return Promise.resolve(undefined);
  };
  return { ...action, submit };
}

/** A read made when the screen shows (and again on `reload`): loading, its payload, or its error and the error's code. */
export function useRead<Data>(read: () => Answer<Data>, deps: unknown[]) {
  const [state, setState] = useState<{ loading: boolean; data?: Payload<Data>; error?: string; code?: string }>({ loading: true });
  const [round, setRound] = useState(0);
  // The caller names what the read depends on (`deps`).
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    unwrap(read()).then(
      (data) => current && setState({ loading: false, data }),
      (error: unknown) =>
        current &&
        setState({
          loading: false,
          error: Object.values(errorsOfAnswer(error))[0],
          ...(error instanceof ApiError ? { code: error.code } : {}),
        }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((n) => n + 1) };
}
