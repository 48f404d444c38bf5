import type * as z from 'zod/mini';
import { readForRequest } from '../chain/errors.js';
import { platformError } from '../platform/errors.js';
import { logError } from '../platform/log.js';
import { recordEvent } from '../platform/metrics.js';
import { SPONSOR_BALANCE_LOW } from './metrics.js';
import type { TokenClaims } from '../platform/tokens.js';
import { redeemableClaim } from '../rewards/claims.js';
import { releaseCoin, reserveCoin, stillPending } from './coins.js';
import { chargeDays } from './days.js';
import type { SponsorshipDeps } from './deps.js';
import { sponsorError } from './errors.js';
import { type GasCoin, gasState, type GasState } from './gas-reads.js';
import { kindRefusal } from './kind-check.js';
import type { SponsorBody, SponsoredClaim } from './models.js';
import { gameLimit, storedSponsorship } from './settings.js';
import { dropSigning, type Signed, signedMeanwhile, sponsoredOf, storeSigned, takeSigning } from './records.js';
import { sponsoredTransaction } from './transaction.js';

/**
 * A sponsored claim (docs/claims.md "Sponsored claims"): the stage's sponsor pays the gas of one player's
 * redemption of one reward. In order, each refusal writing nothing:
 * 1. the entry is the caller's and its claim can be redeemed now (signed, unexpired, unpaid: 409 otherwise), and
 *    its game has a claim function set for sponsorship (409);
 * 2. the transaction kind is exactly that function's call for that claim (kind-check.ts; 400 naming what differs);
 * 3. a transaction already signed for the entry and still pending (its coin unmoved, its epoch current) is the
 *    answer: a repeat never signs a second coin into a second transaction; one that ran and paid the claim
 *    refuses (409) before the indexer has marked the entry paid;
 * 4. the sponsor's balance is above the stage's threshold (503 and the alarm's log line otherwise);
 * 5. the entry's signing is taken (records.ts): a concurrent request for the same entry waits for this one's
 *    transaction and answers it, so a repeat is never charged twice nor given a second coin;
 * 6. the day's limits of the player and of the game take one more claim of the gas cap (429, days.ts);
 * 7. a free gas coin is reserved (coins.ts; 503 when none is found);
 * 8. the transaction is built, signed and stored for the entry.
 * A refusal or failure after step 5 gives back the day's charge, the coin and the signing.
 */

const answerOf = (id: number, stored: Signed): SponsoredClaim => ({
  id,
  transaction: stored.transaction,
  digest: stored.digest,
  sponsor_signature: stored.sponsor_signature,
  sponsor: stored.sponsor,
  gas_budget: stored.gas_budget,
  gas_price: stored.gas_price,
  epoch: stored.epoch,
});

const pending = (stored: Signed, nonce: string, state: GasState) =>
  stored.nonce === nonce &&
  stillPending(
    { version: stored.coin_version, epoch: Number(stored.epoch) },
    state.coins.find((coin) => coin.objectId === stored.coin),
    state,
  );

/** The claim's coin as a Move type: `type_name` renders addresses as 64 hex digits without `0x`. */
const moveType = (typeName: string) => typeName.replace(/(^|[<,\s])([0-9a-fA-F]{64})::/g, '$10x$2::');

/**
 * Whether the transaction signed earlier for the entry paid it: it ran (its coin moved on) and emitted the claim
 * event. The claim event reaches the entry through the indexer a moment later; until then this read keeps a
 * second sponsored transaction of a paid reward from being signed, which the verifier would refuse
 * (EAlreadyRedeemed) at the sponsor's cost. A failed run (an abort) pays nothing: the entry may be sponsored again.
 */
async function paidBy(deps: SponsorshipDeps, digest: string): Promise<boolean> {
  const events = await readForRequest(() => deps.chain!.source.transactionEvents(digest), 'id', 'chain: sponsored transaction read failed', { digest });
  const claimEvent = deps.chain!.config.claimEventType;
  return (events ?? []).some((event) => (claimEvent ? event.type === claimEvent : event.type.endsWith('::RewardClaimed')));
}

export async function sponsorClaim(deps: SponsorshipDeps, caller: TokenClaims, body: z.infer<typeof SponsorBody>): Promise<SponsoredClaim> {
  const sponsor = deps.sponsor;
  if (!sponsor) throw sponsorError('sponsor.unconfigured', 'the stage sponsors no claims (it has no SponsorKey)');
  const { id } = body;
  const [entry, earlier] = await Promise.all([redeemableClaim(deps, caller, id), sponsoredOf(deps, id)]);
  if (entry.state === 'paid') throw sponsorError('sponsor.already_paid', `id: the reward of history entry ${id} is paid already`);
  if (entry.state === 'unsigned') throw sponsorError('sponsor.claim_not_ready', `id: history entry ${id} has no signed claim; call sign_code first`);
  if (entry.state === 'expired') throw sponsorError('sponsor.claim_not_ready', `id: the claim of history entry ${id} has expired; sign_code signs a fresh one`);
  const { claim } = entry;
  const settings = await storedSponsorship(deps, entry.game_code);
  if (!settings)
    throw sponsorError('sponsor.game_not_sponsored', `id: the game ${entry.game_code} of history entry ${id} has no claim function set for sponsorship`);
  const [pkg, module, fn] = settings.target.split('::') as [string, string, string];
  const kind = new Uint8Array(Buffer.from(body.transaction_kind, 'base64'));
  const refusal = await kindRefusal(kind, {
    target: { package: pkg, module, function: fn },
    coinType: moveType(claim.coin_type),
    verifier: claim.game,
    message: new Uint8Array(Buffer.from(claim.message, 'hex')),
    signature: new Uint8Array(Buffer.from(claim.signature, 'base64')),
  });
  if (refusal) throw sponsorError('sponsor.transaction_refused', refusal);

  const state = await gasState(deps.chain, sponsor.address);
  if (earlier?.state === 'signed') {
    if (pending(earlier, claim.nonce, state)) return answerOf(id, earlier);
    if (await paidBy(deps, earlier.digest)) throw sponsorError('sponsor.already_paid', `id: the reward of history entry ${id} is paid already`);
  }
  if (state.balance < sponsor.limits.lowBalance) {
    // The count the stage's SponsorBalanceLow alarm watches (infra/alarms.ts), and the line that says why.
    recordEvent(deps.stage, SPONSOR_BALANCE_LOW);
    await logError('sponsor: balance under the threshold', {
      sponsor: sponsor.address,
      balance: state.balance.toString(),
      threshold: sponsor.limits.lowBalance.toString(),
    });
    throw sponsorError('sponsor.unavailable', 'the stage’s gas sponsor is low on SUI; try again later', { retryAfterSeconds: 300 });
  }

  const at = await takeSigning(deps, id, claim.nonce, earlier);
  if (!at) {
    // Another request is signing the entry's transaction: its answer is this one's.
    const theirs = await signedMeanwhile(deps, id, claim.nonce);
    if (theirs) return answerOf(id, theirs);
    throw platformError('data.changed_concurrently', `id: history entry ${id} is being sponsored by another request; retry`);
  }
  const gas = sponsor.limits.gasCap;
  let giveBack: (() => Promise<void>) | undefined;
  let coin: GasCoin | undefined;
  try {
    giveBack = await chargeDays(
      deps,
      { uid: caller.sub, game: entry.game_code, gas },
      { player: { count: sponsor.limits.playerDailyCount, gas: sponsor.limits.playerDailyGas }, game: gameLimit(settings, sponsor) },
    );
    coin = await reserveCoin(deps, state, gas, id);
    if (!coin)
      throw sponsorError('sponsor.unavailable', 'the stage’s sponsor found no gas coin free of a pending transaction; try again shortly', {
        retryAfterSeconds: 5,
      });
    const built = await sponsoredTransaction(kind, { sender: claim.recipient, sponsor, coin, price: state.price, budget: gas, epoch: state.epoch });
    const signed = {
      nonce: claim.nonce,
      transaction: Buffer.from(built.bytes).toString('base64'),
      digest: built.digest,
      sponsor_signature: built.signature,
      sponsor: sponsor.address,
      gas_budget: gas.toString(),
      gas_price: state.price.toString(),
      epoch: state.epoch,
      coin: coin.objectId,
      coin_version: coin.version,
      game_code: entry.game_code,
    };
    await storeSigned(deps, id, at, signed);
    return answerOf(id, { state: 'signed', ...signed });
  } catch (error) {
    // Nothing of a refused or failed signing stays: its days' charge, its coin and its hold on the entry.
    await Promise.all([giveBack?.(), coin && releaseCoin(deps, coin, id), dropSigning(deps, id, at)]);
    throw error;
  }
}
