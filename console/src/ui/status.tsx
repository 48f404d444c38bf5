/** The state of a read: loading (announced politely), its error, or nothing once it has data. */
export function ReadState({ loading, error, what }: { loading: boolean; error?: string | undefined; what: string }) {
  if (error)
    return (
      <p class="error" role="alert">
        Could not load {what}: {error}
      </p>
    );
  return loading ? (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  ) : null;
}

/** A success message, announced when it appears. */
export function Done({ message }: { message?: string | undefined }) {
  return message ? (
    <p class="done" role="status">
      {message}
    </p>
  ) : null;
}
