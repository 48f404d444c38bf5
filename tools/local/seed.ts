import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createGame, updateGame } from '../../core/games/games.js';
import { gameKey } from '../../core/games/keys.js';
import { GameCreate, GameUpdate } from '../../core/games/models.js';
import { claimTerms } from '../../core/rewards/claims.js';
import { SponsorshipSave } from '../../core/sponsorship/models.js';
import { setSponsorship, storedSponsorship } from '../../core/sponsorship/settings.js';
import { createAccount, ensureAccount } from '../../core/merchants/accounts.js';
import { createMerchant, setMerchantStatus } from '../../core/merchants/merchants.js';
import { MerchantPayload, MerchantStatus } from '../../core/merchants/models.js';
import type { Deps } from '../../core/deps.js';
import type { TokenClaims } from '../../core/platform/tokens.js';
import type { DevChain } from './dev-chain/dev-chain.js';
import { VERIFIER_PACKAGE } from './dev-chain/claim-verifier.js';

/**
 * Start-up data of the local server:
 * - SEED_ADMIN_EMAIL and SEED_ADMIN_PASSWORD set: that admin account exists afterwards (created if missing);
 * - otherwise an empty table gets demo data: a merchant account, its active merchant and two games. The demo
 *   password is random, kept in the data folder and printed at every start.
 */
export async function seedLocal(deps: Deps, dataDir: string, seedAdmin: { email: string; password: string } | undefined, log: (line: string) => void) {
  if (seedAdmin) {
    const admin = await ensureAccount(deps, { ...seedAdmin, role: 'admin' });
    log(`admin account ${admin.email} ${admin.created ? 'created' : 'exists'}`);
    return;
  }
  const credentialsPath = join(dataDir, 'demo-credentials.json');
  if (await isEmpty(deps)) {
    const credentials = { email: 'demo-merchant@example.com', password: randomBytes(9).toString('base64url') };
    await loadDemoData(deps, credentials);
    await writeFile(credentialsPath, JSON.stringify(credentials), { mode: 0o600 });
  }
  const saved = await readFile(credentialsPath, 'utf8').catch(() => undefined);
  if (saved) {
    const { email, password } = JSON.parse(saved) as { email: string; password: string };
    log(`demo merchant account: ${email} / ${password}`);
  }
}

async function isEmpty(deps: Deps) {
  const out = await deps.db.send(new ScanCommand({ TableName: deps.table, Limit: 1, Select: 'COUNT' }));
  return (out.Count ?? 0) === 0 && !out.LastEvaluatedKey;
}

async function loadDemoData(deps: Deps, credentials: { email: string; password: string }) {
  const account = await createAccount(deps, { ...credentials, role: 'merchant' });
  const owner: TokenClaims = { kind: 'merchant', sub: account.accountId, email: account.email, role: 'merchant', exp: 0 };
  const merchant = await createMerchant(
    deps,
    owner,
    MerchantPayload.parse({
      merchant_name: 'Demo Studio',
      logo_url: 'https://example.com/demo-studio.png',
      description: 'A studio that exists only in the local demo data.',
      social_links: [{ name: 'web', url: 'https://example.com' }],
    }),
  );
  await setMerchantStatus(deps, merchant.id, MerchantStatus.active);
  for (const game of [
    { code: 'demo-arena', game_name: 'Demo Arena', genre: 'action', platform: ['web'], link: { web: 'https://example.com/arena' } },
    {
      code: 'demo-puzzle',
      game_name: 'Demo Puzzle',
      genre: 'puzzle',
      platform: ['ios', 'android'],
      link: { apple: 'https://example.com/ios', android: 'https://example.com/android' },
    },
  ]) {
    await createGame(deps, owner, GameCreate.parse({ ...game, describe: `${game.game_name}, a demo game.`, releaseDate: '2026-01-01' }));
  }
}

/** What the demo game's verifier holds to pay claims: 1,000 SUI in MIST. */
const DEMO_POOL = 1_000_000_000_000n;

/**
 * On the development chain, the demo game `demo-arena` gets a claim verifier (docs/claims.md, made as
 * `create_self_bound<SUI>` makes it, with this stage's claim key, chain name and a funded pool) as its
 * package_id and object_id, so its players' rewards can be claimed and redeemed locally. Done when the game has
 * no object_id or one the chain does not hold (a new DATA_DIR, or the chain's file removed); a game whose studio
 * set an object the chain holds is left alone.
 */
export async function seedDemoVerifier(deps: Deps, chain: DevChain, log: (line: string) => void) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey('demo-arena') }));
  const game = out.Item as { accountId?: string; object_id?: string } | undefined;
  if (!game?.accountId || !deps.claims || (game.object_id && chain.state.objects.has(game.object_id))) return;
  const objectId = chain.createVerifier({ publicKey: deps.claims.publicKey, chain: claimTerms(deps).chain, pool: DEMO_POOL });
  const owner: TokenClaims = { kind: 'merchant', sub: game.accountId, role: 'merchant', exp: 0 };
  await updateGame(deps, owner, GameUpdate.parse({ code: 'demo-arena', package_id: VERIFIER_PACKAGE, object_id: objectId }));
  log(`development chain: demo-arena's claim verifier is ${objectId}`);
}

/** Gas coins the sponsor is given on the development chain: as many of its claims may be pending at once. */
const SPONSOR_COINS = 3;

/**
 * On the development chain, the stage's gas sponsor gets SUI from the faucet (the Sui faucet's own protocol) when it
 * holds none, and `demo-arena` is sponsored with its verifier's claim function, so a player without SUI redeems a
 * reward locally as on a stage (docs/claims.md "Sponsored claims"). A sponsorship the studio changed is left alone.
 */
export async function seedDemoSponsor(deps: Deps, chain: DevChain, log: (line: string) => void) {
  if (!deps.sponsor) return;
  const owner = deps.sponsor.address;
  const held = [...chain.state.objects.values()].some((object) => object.owner.kind === 'ADDRESS' && object.owner.address === owner);
  if (!held) {
    const { requestSuiFromFaucetV2 } = await import('@mysten/sui/faucet');
    for (let i = 0; i < SPONSOR_COINS; i++) await requestSuiFromFaucetV2({ host: chain.faucetUrl, recipient: owner });
    log(`development chain: the gas sponsor ${owner} got SUI from the faucet`);
  }
  const game = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey('demo-arena') }))).Item;
  if (!game || (await storedSponsorship(deps, 'demo-arena'))) return;
  await setSponsorship(deps, SponsorshipSave.parse({ game_code: 'demo-arena', target: `${VERIFIER_PACKAGE}::verifier::redeem` }));
}
