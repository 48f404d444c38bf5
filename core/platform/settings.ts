/**
 * A stage setting that holds a JSON object (CHAIN_CONFIG, APPLE_CONFIG, GOOGLE_CONFIG locally; the ChainConfig,
 * AppleConfig and GoogleConfig secrets deployed): undefined when unset or blank (the feature is off); an Error
 * naming the setting when it is not JSON or not an object, so that a bad setting fails at start, not per request.
 */
export function jsonObjectSetting(json: string | undefined, label: string): Record<string, unknown> | undefined {
  if (!json?.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`${label}: not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${label}: expected a JSON object`);
  return value as Record<string, unknown>;
}
