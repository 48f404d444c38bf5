import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestSuiFromFaucetV2 } from '@mysten/sui/faucet';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import { signClaim } from '../core/rewards/claims.js';
import { seasonHistory } from '../core/rewards/history.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { SponsorshipSave } from '../core/sponsorship/models.js';
import { setSponsorship } from '../core/sponsorship/settings.js';
import { redeemTransaction } from '../docs/quickstart/wallet.js';
import { VERIFIER_PACKAGE } from '../tools/local/dev-chain/claim-verifier.js';
import { type DevChain, startDevChain } from '../tools/local/dev-chain/dev-chain.js';
import { playerWithTokens } from '../test/support/payments.js';
import { claimableGame, pastWeek, rewardGame, scoresInPastWeek } from '../test/support/rewards.js';
import { chargeDays } from '../core/sponsorship/days.js';
import { accountWithToken } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

const TARGET = `0x${'c1'.repeat(32)}::verifier::redeem`;

/** The sponsorship operations that read and write only the table (docs/claims.md "Sponsored claims"). */
export const sponsorshipOperations: OperationBench[] = [
  {
    group: 'pay',
    op: 'sponsorship_set',
    minimum: 2,
    reason: "the game's sponsorship Put, then the answer's BatchGetItem (the sponsorship and the game's day); the owner is checked by the authorization layer",
    units: { write: 1, read: 2, why: 'one Put under 1 KB (1) + two items read strongly consistent (2)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, body: { game_code: game.code, target: TARGET, daily_count: 10 } };
    },
  },
  {
    group: 'pay',
    op: 'sponsorship_get',
    minimum: 1,
    reason: "one BatchGetItem: the game's sponsorship and its sponsored day",
    units: { write: 0, read: 2, why: 'two items under 4 KB, strongly consistent (2)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, query: { game_code: game.code } };
    },
  },
  {
    group: 'admin-console',
    op: 'sponsored_day',
    minimum: 1,
    reason: "one Query of the day's partition: every game's sponsored day",
    units: { write: 0, read: 0.5, why: "three games' days, under 4 KB in all, eventually consistent: a moment behind is fine for the stage screen (0.5)" },
    prepare: async (deps) => {
      for (let i = 0; i < 3; i++) {
        const game = await rewardGame(deps);
        await chargeDays(
          deps,
          { uid: `bench-${i}`, game: game.code, gas: 1_000_000n },
          { player: { count: 5, gas: 10_000_000n }, game: { count: 100, gas: 10_000_000n } },
        );
      }
      return { token: (await accountWithToken(deps, 'admin')).token, query: {} };
    },
  },
];

let devChain: Promise<DevChain> | undefined;
/** The development chain the sponsored claim is measured against, started once (bench/run.ts stops it). */
const devChainOf = () => (devChain ??= startDevChain({ dataDir: mkdtempSync(join(tmpdir(), 'bench-chain-')), now: () => new Date() }));
export const stopSponsorChain = async () => (devChain ? (await devChain).stop() : undefined);

/**
 * claim_sponsor against the development chain (GraphQL in Sui's real format, as the tests use it). Listed last in
 * bench/operations.ts: its prepare points the deps' chain's GraphQL at the development chain, keeping the hero
 * game's gRPC node, and no operation measured after it reads the chain.
 */
export const sponsoredClaimOperation: OperationBench = {
  group: 'pay',
  op: 'claim_sponsor',
  minimum: 9,
  reason:
    "whether the caller deleted their account (GetItem, fresh on a request that moves value) + the entry ∥ its sponsored record (GetItem each), the game's sponsorship (GetItem), the entry's signing (PutItem), the player's day and the game's day (an UpdateItem each, never in one transaction: the game's is shared), a coin's reservation (PutItem), the signed transaction (PutItem); and the chain's epoch ∥ the sponsor's coins",
  units: {
    write: 6,
    read: 4,
    why: "the gone mark and three items read strongly consistent (4) + the signing (1), two days (2), the coin's reservation (1), the signed transaction of about 1.5 KB (2)",
  },
  prepare: async (deps) => {
    const chain = await devChainOf();
    const sponsor = deps.sponsor!;
    if (!chain.state.objects.size || ![...chain.state.objects.values()].some((o) => o.owner.kind === 'ADDRESS' && o.owner.address === sponsor.address))
      await requestSuiFromFaucetV2({ host: chain.faucetUrl, recipient: sponsor.address });
    const setting = JSON.parse(chain.chainSetting) as Record<string, unknown>;
    const grpcUrl = deps.chain?.config.grpcUrl;
    deps.chain = createChain(parseChainConfig(JSON.stringify({ ...setting, ...(grpcUrl ? { grpcUrl } : {}) }))!);
    const verifier = chain.createVerifier({ publicKey: deps.claims!.publicKey, chain: 'sui:testnet', pool: 1_000_000n });
    const game = await claimableGame(deps, [{ rank: 1, amount: 500 }], verifier);
    const player = await playerWithTokens(deps);
    await scoresInPastWeek(deps, game, [{ id: player.uid, wins: 3 }]);
    await settleSeason(deps, game.code, pastWeek());
    const [entry] = await seasonHistory(deps, game.code, pastWeek());
    const claim = await signClaim(deps, { kind: 'platform', sub: player.uid, exp: 0 }, Number(entry!.id));
    await setSponsorship(deps, SponsorshipSave.parse({ game_code: game.code, target: TARGET }));
    const tx = redeemTransaction({ packageId: VERIFIER_PACKAGE, verifier, message: claim.message, signature: claim.signature });
    const kind = Buffer.from(await tx.build({ onlyTransactionKind: true })).toString('base64');
    return { token: player.platform, body: { id: claim.id, transaction_kind: kind } };
  },
};
