import { randomUUID } from 'node:crypto';
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { forgetPlayer } from '../access/players.js';
import { forgetZkSubject } from '../identity/zklogin.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { DomainError, platformError } from '../platform/errors.js';
import { answerKept, answerText } from '../platform/kept-answers.js';
import { logError } from '../platform/log.js';
import { goneKey, newPseudonym } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, isWriteConflict, RACED, transactOrRaced } from '../platform/transactions.js';
import type { PrivacyDeps } from './deps.js';
import { privacyError } from './errors.js';
import { eraseRound } from '../platform/erase-round.js';
import { footprintSize } from '../platform/footprint.js';
import { playerFootprint } from './player-kinds.js';
import { leaveRankPages } from './rank-pages.js';
import { ANSWER_DAYS, ERASURE_PREFIX, erasureKey, LEASE_SECONDS, RUNNING_ERASURES } from './keys.js';
import { type DeletionBody, type DeletionResult, ErasureRecord } from './models.js';
import { writeNotices } from './notices.js';
import { forfeitsOf } from './forfeits.js';
import { proofIdOf, verifyProof, type ZkIdentity } from './proof.js';
import { forgetLearned, keepLearned, learnedFrom, learnedOf, type Learned } from './learned.js';

/**
 * A player's account deletion (docs/security.md "Deleting a player's account"), a run that a crash never leaves
 * half done:
 * 1. the start, one transaction: the deletion's record `ERASURE#<proof id>` (on condition it is new: one
 *    deletion per proof), the gone mark (on condition it is new: one deletion per player; from here every token
 *    of the player is refused) and the consumed deletion message;
 * 2. rounds (core/platform/erase-round.ts), each reading what is left of the player (playerFootprint) and deleting or pseudonymizing
 *    it, every write conditional on the item being as read; a round that loses a race leaves its items to the
 *    next. Everything a round needs to find the player's items again (uid, address, names, studios) is in the
 *    record or beside it (learned.ts), written before any item it was learned from goes;
 * 3. the studios' notices, then the record keeps only the answer.
 * One run at a time holds the record's lease (LEASE_SECONDS, renewed every round). The same request again
 * (the same proof) answers the first answer once done, takes the run over once the lease has lapsed (a crashed
 * run), and is 409 `deletion.running` while another run holds it. The resume job (resumeDeletions) takes over
 * runs whose lease lapsed without a retry.
 */
const MAX_ROUNDS = 6;
/** How long after its answer a deletion's last sweep waits (deletions job): index reads and reports in flight settle. */
export const SWEEP_AFTER_SECONDS = 5 * 60;

/** What a run works with: the record's running state. */
interface Running extends Learned {
  proofId: string;
  uid: string;
  address?: string;
  zk?: ZkIdentity;
  pseudonym: string;
  deletedAt: string;
  runner: string;
}

/** The deletion's record with what it learned (learned.ts): one Query of its partition. */
async function readErasure(deps: PrivacyDeps, proofId: string): Promise<ErasureRecord | undefined> {
  const items = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': erasureKey(proofId).pk },
    ConsistentRead: true,
  });
  const item = items.find((found) => found.sk === erasureKey(proofId).sk);
  if (!item) return undefined;
  const record = ErasureRecord.parse(item);
  return { ...record, ...learnedOf(items, record) };
}

/** account delete: verifies the proof, starts (or finds) the deletion and runs it to its end. */
export async function deleteAccount(deps: PrivacyDeps, uid: string, body: DeletionBody): Promise<DeletionResult> {
  const proofId = proofIdOf(body);
  const found = await readErasure(deps, proofId);
  if (found) return rejoin(deps, uid, proofId, found);

  const proof = await verifyProof(deps, uid, body).catch(async (error: unknown) => {
    // The same proof in a request that started a moment ago consumed the message between our two reads: that
    // deletion answers this request too.
    const other = error instanceof DomainError && error.code === 'deletion.message_missing' ? await readErasure(deps, proofId) : undefined;
    if (other) return other;
    throw error;
  });
  if (!('account' in proof)) return rejoin(deps, uid, proofId, proof);
  const now = deps.now();
  const deletedAt = now.toISOString();
  const runner = randomUUID();
  const state: Running = {
    proofId,
    uid,
    address: proof.account.wallet_address,
    ...(proof.zk ? { zk: proof.zk } : {}),
    pseudonym: newPseudonym(),
    deletedAt,
    runner,
    identifiers: [],
    names: [],
    studios: [],
    nfts: [],
    seasons: [],
  };
  const record = {
    ...erasureKey(proofId),
    type: 'erasure',
    status: 'running',
    gone: goneKey(uid).pk,
    deleted_at: deletedAt,
    uid,
    address: state.address,
    ...(state.zk ? { zk: state.zk } : {}),
    pseudonym: state.pseudonym,
    runner,
    lease_until: now.getTime() + LEASE_SECONDS * 1000,
    gsi3pk: RUNNING_ERASURES,
    gsi3sk: deletedAt,
  };
  // Every try cancelled (RACED) means another start of this account's deletion was in flight: the record, the gone
  // mark and the proof are what a start writes. It may have been cancelled as well.
  const failed = await transactOrRaced(deps, [
    { Put: { TableName: deps.table, Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: deps.table,
        Item: { ...goneKey(uid), type: 'gone', deleted_at: Math.floor(now.getTime() / 1000) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...proof.consume,
  ]);
  if (failed === RACED || failed.length > 0) {
    // The same proof raced this request (the record), or another proof started first (the gone mark): one
    // deletion runs; this request says so. A message consumed meanwhile is that same race.
    const other = await readErasure(deps, proofId);
    if (other) return rejoin(deps, uid, proofId, other);
    // A start that only collided may have left nothing running: a retry soon starts it or finds the one that won.
    throw privacyError('deletion.running', 'account: its deletion is running in another request', {
      retryAfterSeconds: failed === RACED ? 1 : LEASE_SECONDS,
    });
  }
  forgetPlayer(uid);
  return run(deps, state);
}

/** The same request again: the first answer once done; the run taken over once its lease has lapsed. */
async function rejoin(deps: PrivacyDeps, uid: string, proofId: string, record: ErasureRecord): Promise<DeletionResult> {
  if (record.gone !== goneKey(uid).pk) throw privacyError('deletion.proof_other_account', 'this proof deleted another account');
  if (record.status === 'done') return answerKept(record) as DeletionResult;
  return run(deps, await takeOver(deps, proofId, record));
}

/** Takes a running deletion's lease from a run that let it lapse; 409 while it is held. */
async function takeOver(deps: PrivacyDeps, proofId: string, record: ErasureRecord): Promise<Running> {
  const now = deps.now().getTime();
  const held = (record.lease_until ?? 0) - now;
  if (held > 0) throw privacyError('deletion.running', 'account: its deletion is running in another request', { retryAfterSeconds: Math.ceil(held / 1000) });
  const runner = randomUUID();
  await holdLease(deps, proofId, runner, record.runner);
  return { ...stateOf(record), proofId, runner };
}

/** A running or unswept deletion's state, as its record keeps it. */
function stateOf(record: ErasureRecord) {
  return {
    uid: record.uid!,
    ...(record.address ? { address: record.address } : {}),
    ...(record.zk ? { zk: record.zk } : {}),
    pseudonym: record.pseudonym!,
    deletedAt: record.deleted_at,
    identifiers: record.identifiers,
    names: record.names,
    studios: record.studios,
    nfts: record.nfts,
    seasons: record.seasons,
  };
}

/**
 * One UpdateItem of a deletion's record. A lone write meeting a transaction in flight on the record (another
 * request's start with the same proof) is refused by DynamoDB (TransactionConflictException): it is sent again
 * a few times, then answered 409.
 */
async function updateRecord(deps: PrivacyDeps, input: UpdateCommandInput) {
  return retrying(() => deps.db.send(new UpdateCommand(input)), {
    retryOn: isWriteConflict,
    giveUp: () => {
      throw new ConcurrentChange('account: its deletion is being written by another request; retry');
    },
  });
}

/** Renews the lease for `runner` (taking it from `from`, a lapsed holder); 409 when another run holds it. */
async function holdLease(deps: PrivacyDeps, proofId: string, runner: string, from = runner) {
  const now = deps.now().getTime();
  try {
    await updateRecord(deps, {
      TableName: deps.table,
      Key: erasureKey(proofId),
      UpdateExpression: 'SET runner = :me, lease_until = :until',
      ConditionExpression: '#status = :running AND (runner = :me OR (runner = :from AND lease_until < :now))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':me': runner, ':from': from, ':until': now + LEASE_SECONDS * 1000, ':now': now, ':running': 'running' },
    });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    throw privacyError('deletion.running', 'account: its deletion is running in another request', { retryAfterSeconds: LEASE_SECONDS });
  }
}

/** An UpdateItem of the record on condition this run still holds it. */
function updateHeld(
  deps: PrivacyDeps,
  state: Running,
  update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
) {
  return updateRecord(deps, {
    TableName: deps.table,
    Key: erasureKey(state.proofId),
    ...update,
    ConditionExpression: 'runner = :me',
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':me': state.runner },
  });
}

/** The round's view of the run: whose deletion, under which pseudonym, and this round's time. */
const runOf = (deps: PrivacyDeps, state: Omit<Running, 'proofId' | 'runner'>) => ({
  uid: state.uid,
  pseudonym: state.pseudonym,
  deletedAt: state.deletedAt,
  now: deps.now(),
});

/** What the kept records must no longer hold: the identifiers and names learned so far. */
const personalOf = (state: Learned & { pseudonym: string }) => ({ identifiers: state.identifiers, names: state.names, pseudonym: state.pseudonym });

/** Runs the deletion to its end; a run that fails lets go of its lease, so the request's retry takes over at once. */
async function run(deps: PrivacyDeps, start: Running): Promise<DeletionResult> {
  try {
    return await runRounds(deps, start);
  } catch (error) {
    await releaseLease(deps, start).catch(() => undefined);
    throw error;
  }
}

async function releaseLease(deps: PrivacyDeps, state: Running) {
  await updateHeld(deps, state, { UpdateExpression: 'SET lease_until = :lapsed', ExpressionAttributeValues: { ':lapsed': 0 } });
}

async function runRounds(deps: PrivacyDeps, start: Running): Promise<DeletionResult> {
  let state = start;
  // Each round erases what the read before it found; the read after it is the next round's.
  let footprint = await playerFootprint(deps, { uid: state.uid, address: state.address });
  // A round whose writes lost to concurrent ones (or that met items written meanwhile) leaves some: another round.
  if (footprintSize(footprint) > 0) {
    await retrying(
      async () => {
        await holdLease(deps, state.proofId, state.runner);
        const learned = await learnedFrom(deps, state, footprint);
        if (learned !== state) {
          // Kept before the items it was learned from can go.
          await keepLearned(deps, state.proofId, state, learned);
          state = { ...state, ...learned };
        }
        await eraseRound(deps, footprint, runOf(deps, state), personalOf(state));
        footprint = await playerFootprint(deps, { uid: state.uid, address: state.address });
        return footprintSize(footprint) > 0 ? AGAIN : undefined;
      },
      {
        attempts: MAX_ROUNDS,
        pause: false,
        giveUp: () => {
          throw platformError(
            'data.changed_concurrently',
            "account: the player's items kept changing during the deletion; send the same request again to finish it",
          );
        },
      },
    );
  }
  if (state.zk) await forgetZkSubject(deps, { ...state.zk, jwt: '' });
  await writeNotices(deps, state.uid, state.deletedAt, state.studios);
  const answer: DeletionResult = {
    deleted: true,
    deleted_at: state.deletedAt,
    ...(await forfeitsOf(deps, state.pseudonym)),
    heroes_released: state.nfts.length,
  };
  await finish(deps, state, answer);
  return answer;
}

/**
 * The answer is kept for the request's retries (ANSWER_DAYS). What the run knows of the player stays until the
 * sweep (SWEEP_AFTER_SECONDS later, by the deletions job): index reads lag writes by a moment, and a report
 * whose transaction was in flight as the deletion started can land after the run's last read.
 */
async function finish(deps: PrivacyDeps, state: Running, answer: DeletionResult) {
  const now = deps.now();
  await updateHeld(deps, state, {
    UpdateExpression: 'SET #status = :done, answer_json = :answer, expiresAt = :expires, gsi3sk = :sweep REMOVE runner, lease_until',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':done': 'done',
      ':answer': answerText(answer),
      ':expires': Math.floor(now.getTime() / 1000) + ANSWER_DAYS * 86_400,
      ':sweep': new Date(now.getTime() + SWEEP_AFTER_SECONDS * 1000).toISOString(),
    },
  });
}

/**
 * The sweep: what a last read still finds goes as in a round, and the player leaves every board's head and
 * snapshot at once, without waiting for the stream or the next snapshot (rank-pages.ts); then the record forgets
 * the player.
 */
async function sweep(deps: PrivacyDeps, proofId: string, record: ErasureRecord) {
  const state = { ...stateOf(record), runner: '' };
  const footprint = await playerFootprint(deps, { uid: state.uid, address: state.address });
  if (footprintSize(footprint) > 0 && !(await eraseRound(deps, footprint, runOf(deps, state), personalOf(state)))) {
    throw platformError('data.changed_concurrently', "the player's items changed during the sweep; the next pass sweeps again");
  }
  await leaveRankPages(deps, state.uid, state.seasons);
  await forgetLearned(deps, proofId, state);
  await updateRecord(deps, {
    TableName: deps.table,
    Key: erasureKey(proofId),
    UpdateExpression: 'REMOVE uid, address, zk, pseudonym, identifiers, #names, studios, nfts, seasons, gsi3pk, gsi3sk',
    ConditionExpression: '#status = :done',
    ExpressionAttributeNames: { '#status': 'status', '#names': 'names' },
    ExpressionAttributeValues: { ':done': 'done' },
  });
}

/**
 * The deletions job's pass (functions/jobs/deletions.ts), oldest first until `deadline`: every deletion whose run
 * stopped without finishing (its lease lapsed: a crash, a timeout, a lost race the request gave up on) is taken
 * over and run to its end; every answered deletion due for its sweep is swept. A deletion another run holds is
 * left to it.
 */
export async function resumeDeletions(deps: PrivacyDeps, { deadline }: { deadline: number }) {
  const waiting = await queryItems(deps, {
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :running',
    ExpressionAttributeValues: { ':running': RUNNING_ERASURES },
  });
  let finished = 0;
  let failed = 0;
  for (const item of waiting) {
    if (Date.now() >= deadline) break;
    const listed = ErasureRecord.parse(item);
    const proofId = String(item.pk).slice(ERASURE_PREFIX.length);
    const now = deps.now();
    const due = listed.status === 'done' ? String(item.gsi3sk) <= now.toISOString() : (listed.lease_until ?? 0) <= now.getTime();
    if (!due) continue;
    try {
      // The index holds the record only: it is read again with what it learned.
      const record = (await readErasure(deps, proofId)) ?? listed;
      if (record.status === 'done') await sweep(deps, proofId, record);
      else await run(deps, await takeOver(deps, proofId, record));
      finished++;
    } catch (error) {
      failed++;
      await logError('deletions: a deletion could not be finished; the next pass tries again', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { finished, failed };
}
