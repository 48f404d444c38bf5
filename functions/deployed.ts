import type { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { Resource } from 'sst/resource';
import { chainFromSetting } from '../core/chain/source.js';
import { claimSignerFromSetting } from '../core/rewards/claim-key.js';
import { createIdTokenVerifier, parseOAuthProviders } from '../core/identity/id-tokens.js';
import { createDocumentClient } from '../core/platform/db.js';
import type { Deps } from '../core/platform/deps.js';
import { s3FileStore } from '../core/platform/files.js';
import { isProductionStage } from '../core/platform/stages.js';
import { createTokenService, type SigningJwk } from '../core/platform/tokens.js';

/** The resources infra links to every function (infra/functions.ts), as SST exposes them. */
interface LinkedResources {
  App: { name: string; stage: string };
  Table: { name: string };
  Files: { name: string };
  TokenSigningKey: { value: string };
  OAuthProviders: { value: string };
  ChainConfig: { value: string };
  ClaimSigningKey: { value: string };
}

let deps: Promise<Deps> | undefined;

/** Builds the deployed stage's Deps once per Lambda instance, on the first request. */
export function deployedDeps(): Promise<Deps> {
  return (deps ??= (async () => {
    const resources = Resource as unknown as LinkedResources;
    const stage = resources.App.stage;
    const now = () => new Date();
    return {
      stage,
      production: isProductionStage(stage),
      // DYNAMODB_ENDPOINT is for running the Lambda handlers against DynamoDB Local (npm run bench).
      db: createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT }),
      table: resources.Table.name,
      files: s3FileStore(resources.Files.name),
      tokens: await createTokenService({
        signingKey: JSON.parse(resources.TokenSigningKey.value) as SigningJwk,
        issuer: `game-platform/${stage}`,
        now,
      }),
      idTokens: createIdTokenVerifier(parseOAuthProviders(resources.OAuthProviders.value), { now }),
      chain: chainFromSetting(resources.ChainConfig.value),
      claims: await claimSignerFromSetting(resources.ClaimSigningKey.value),
      now,
    };
  })());
}

/** A Lambda handler for an app built from the deployed Deps (built on the first invocation). */
export function lambdaHandler(createApp: (deps: Deps) => Hono) {
  let handler: ReturnType<typeof handle> | undefined;
  return async (event: Parameters<ReturnType<typeof handle>>[0], context: Parameters<ReturnType<typeof handle>>[1]) => {
    handler ??= handle(createApp(await deployedDeps()));
    return handler(event, context);
  };
}
