/**
 * Stage naming, shared by infra and the functions so both agree on base paths.
 *
 * - The main base is `/{stage}` (the contract's base ends in `v2-testing`, the stage's name).
 * - The hero base is `/hero-{environment}`, where the environment is the stage without a leading API version
 *   (`v2-testing` -> `hero-testing`, `prod` -> `hero-prod`): the base's last segment names the
 *   environment (docs/api.md, "Bases, envelopes, errors").
 * - Production stages retain and protect data, and refuse operations meant for testing.
 */
export const LOCAL_STAGE = 'v2-testing';

export function isProductionStage(stage: string): boolean {
  return /^(v\d+-)?(prod|production)$/.test(stage);
}

export function environmentOf(stage: string): string {
  return stage.replace(/^v\d+-/, '');
}

export function mainBasePath(stage: string): string {
  return `/${stage}`;
}

export function heroBasePath(stage: string): string {
  return `/hero-${environmentOf(stage)}`;
}
