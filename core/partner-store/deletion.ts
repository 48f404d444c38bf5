import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { readItems } from '../platform/batch.js';
import { eraseRound } from '../platform/erase-round.js';
import { footprintSize, itemsOf, readFootprint } from '../platform/footprint.js';
import { newPseudonym } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, RACED, transactOrFailures, transactOrRaced } from '../platform/transactions.js';
import { jtiUsedAlready, usedJti, verifyAssertion, type Assertion } from './assertions.js';
import { jtiKey } from './keys.js';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import { STORE_USER_KINDS, storeUser } from './items.js';
import { storePartition, storeUserKey } from './keys.js';
import type { UserDeleted } from './models.js';
import { regionKey, type StoreRegion } from './regions.js';
import { StoredLogin, StoredUser } from './sessions.js';
import { StoredLedgerChange } from './wallet.js';
import { loginKey } from './keys.js';

/**
 * user/delete: a store user deletes their store account (docs/security.md "Deleting a player's account", "The
 * partner store's users"). The credential is a fresh partner assertion, as login takes it (assertions.ts) but for
 * its audience (deletionAudience): the partner vouching, right now, that this person is its user `sub`. A store session is not asked for besides:
 * it is an hour-long bearer that an earlier assertion bought, so it proves less than the assertion does, and a
 * deletion that stopped halfway has already made it useless, so its retry could not show one.
 *
 * The run never leaves a deletion half done for good:
 * 1. the start, one transaction: the assertion's jti taken; the user's login item `STORELOGIN#…` becomes the
 *    deletion's record (the pseudonym and the time, on condition it is not one already); the store user item
 *    marked `deleted_at` (from here the user's tokens are refused, and every write for the user is refused by
 *    its condition: nothing new can appear behind the deletion);
 * 2. rounds, as a player's deletion runs them (core/platform/erase-round.ts): each reads what is left of the user
 *    by keys and indexes, as the store's kinds declare (items.ts), and deletes, forfeits or pseudonymizes it, every
 *    write idempotent or conditional on the item being as read;
 * 3. the end, one transaction: the user item and the record deleted; after it the partner's user id leads to
 *    nothing, and a login with it makes a new, empty store user.
 * A later request with a new assertion for the same user finds the record and runs the same steps (taking its
 * own jti): a deletion that stopped (a crash, a table fault, a timeout) is finished by the retry, and requests at
 * once run side by side, each write done by whichever comes first. Once the record is gone the user is unknown:
 * a retry then answers 404, as for a user who never signed in.
 */
const MAX_ROUNDS = 5;

const noSuchUser = (assertion: Assertion) =>
  storeError('store.user_not_found', `assertion: partner ${assertion.clientId} has no store user of its user sub in this region (never signed in, or deleted)`);

/**
 * A deletion's assertion names the deletion as its audience, not the region's issuer as a sign-in's does: an
 * assertion the partner made to sign its user in can never delete the account, however it was obtained.
 */
export const deletionAudience = (issuer: string) => `${issuer}/user/delete`;

/** user/delete: verifies the assertion, starts the deletion or joins the one running, and runs it to its end. */
export async function deleteStoreUser(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, assertion: string): Promise<UserDeleted> {
  regionKey(deps, region);
  const verified = await verifyAssertion(deps, region, deletionAudience(issuer), assertion);
  const [login, used] = await readItems(deps, [loginKey(region, verified.clientId, verified.sub), jtiKey(region, verified.clientId, verified.jti)]);
  if (used) throw jtiUsedAlready();
  if (!login) throw noSuchUser(verified);
  const record = StoredLogin.parse(login);
  const joined = record.pseudonym ? await join(deps, verified, record) : await start(deps, verified, record.uid);
  if (joined.running) await erase(deps, joined.subject);
  return finish(deps, joined.subject, joined.running);
}

const subjectOf = (assertion: Assertion, uid: string, pseudonym: string, deletedAt: string): Subject => ({
  region: assertion.region,
  clientId: assertion.clientId,
  sub: assertion.sub,
  uid,
  pseudonym,
  deletedAt,
});

interface Joined {
  subject: Subject;
  /** False when the deletion finished between this request's read and its write: there is nothing left to do. */
  running: boolean;
}

/** The deletion's first write; a request that loses the race to another's start joins that one. */
async function start(deps: PartnerStoreDeps, assertion: Assertion, uid: string): Promise<Joined> {
  const subject = subjectOf(assertion, uid, newPseudonym(), deps.now().toISOString());
  // Requests at once for one user collide on its items until the platform's retries give up (RACED): what was
  // written meanwhile (another request's start, or its end) decides, so the loser reads it rather than answering 409.
  const failed = await transactOrRaced(deps, [
    usedJti(deps, assertion),
    {
      Update: {
        TableName: deps.table,
        Key: loginKey(subject.region, subject.clientId, subject.sub),
        UpdateExpression: 'SET pseudonym = :pseudonym, deleted_at = :at',
        ConditionExpression: 'uid = :uid AND attribute_not_exists(pseudonym)',
        ExpressionAttributeValues: { ':pseudonym': subject.pseudonym, ':at': subject.deletedAt, ':uid': uid },
      },
    },
    {
      Update: {
        TableName: deps.table,
        Key: storeUserKey(uid),
        UpdateExpression: 'SET deleted_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
        ExpressionAttributeValues: { ':at': subject.deletedAt },
      },
    },
  ]);
  if (failed !== RACED) {
    if (failed.length === 0) return { subject, running: true };
    if (failed.some((failure) => failure.index === 0)) throw jtiUsedAlready();
  }
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: loginKey(subject.region, subject.clientId, subject.sub), ConsistentRead: true }));
  if (!out.Item) throw noSuchUser(assertion);
  const record = StoredLogin.parse(out.Item);
  if (!record.pseudonym) {
    if (failed === RACED) throw new ConcurrentChange('user/delete: the user changed concurrently; retry');
    // The user item and the record are marked in one transaction: one without the other is no state a deletion leaves.
    throw new Error('store user deletion: the user item is missing or marked, and its login item is no deletion record');
  }
  return join(deps, assertion, record);
}

/** A request for a deletion that is running: its assertion is taken, on condition the deletion is still running. */
async function join(deps: PartnerStoreDeps, assertion: Assertion, record: StoredLogin): Promise<Joined> {
  const subject = subjectOf(assertion, record.uid, record.pseudonym!, record.deleted_at!);
  const failed = await transactOrFailures(deps, [
    usedJti(deps, assertion),
    {
      ConditionCheck: {
        TableName: deps.table,
        Key: loginKey(subject.region, subject.clientId, subject.sub),
        ConditionExpression: 'pseudonym = :pseudonym',
        ExpressionAttributeValues: { ':pseudonym': subject.pseudonym },
      },
    },
  ]);
  if (failed.some((failure) => failure.index === 0)) throw jtiUsedAlready();
  return { subject, running: failed.length === 0 };
}

/**
 * The user's deletion as it runs: the partner's user, the store user and the pseudonym that replaces them in what is
 * kept, and when it started.
 */
interface Subject {
  region: StoreRegion;
  clientId: string;
  /** The partner's user id. */
  sub: string;
  uid: string;
  pseudonym: string;
  deletedAt: string;
}

/** Rounds until nothing of the user is left but their user item; 409 (the deletion unfinished) when concurrent runs kept refusing each other's writes. */
async function erase(deps: PartnerStoreDeps, subject: Subject) {
  const user = { uid: subject.uid, address: undefined };
  await retrying(
    async () => {
      const footprint = await readFootprint(deps, user, STORE_USER_KINDS);
      if (footprintSize(footprint) === 0) return undefined;
      const held = itemsOf(footprint, storeUser)[0];
      const name = held && StoredUser.parse(held).name;
      // The uid is long and random: replaced wherever it occurs. The partner's user id and the name are any text.
      const personal = { identifiers: [subject.uid], names: [subject.sub, ...(typeof name === 'string' ? [name] : [])], pseudonym: subject.pseudonym };
      const run = { uid: subject.uid, pseudonym: subject.pseudonym, deletedAt: subject.deletedAt, now: deps.now() };
      // Nothing new is written for the user once the deletion has started, so a round whose writes all went through has left nothing.
      return (await eraseRound(deps, footprint, run, personal)) ? undefined : AGAIN;
    },
    {
      attempts: MAX_ROUNDS,
      pause: false,
      giveUp: () => {
        throw storeError(
          'store.user_deleting',
          "user/delete: concurrent runs of the deletion kept refusing each other's writes; send user/delete again to finish it",
        );
      },
    },
  );
}

/**
 * The answer, from what the deletion kept (the same for every request of the deletion), and the end: the user item
 * and the record deleted together. A run that finds the record gone was overtaken by another that ended it.
 */
async function finish(deps: PartnerStoreDeps, subject: Subject, running: boolean): Promise<UserDeleted> {
  const forfeits = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :forfeit)',
    ExpressionAttributeValues: { ':pk': storePartition(subject.pseudonym), ':forfeit': 'LEDGER#forfeit#' },
    ConsistentRead: true,
  });
  if (running) {
    const ended = await transactOrRaced(deps, [
      { Delete: { TableName: deps.table, Key: storeUserKey(subject.uid) } },
      {
        Delete: {
          TableName: deps.table,
          Key: loginKey(subject.region, subject.clientId, subject.sub),
          ConditionExpression: 'pseudonym = :pseudonym',
          ExpressionAttributeValues: { ':pseudonym': subject.pseudonym },
        },
      },
    ]);
    if (ended === RACED) {
      const out = await deps.db.send(
        new GetCommand({ TableName: deps.table, Key: loginKey(subject.region, subject.clientId, subject.sub), ConsistentRead: true }),
      );
      if (StoredLogin.safeParse(out.Item).data?.pseudonym === subject.pseudonym)
        throw storeError('store.user_deleting', 'user/delete: the deletion is ending in another request; send user/delete again to finish it');
    }
  }
  return {
    deleted: true,
    deleted_at: subject.deletedAt,
    forfeited: forfeits.map((item) => {
      const entry = StoredLedgerChange.parse(item);
      return { holding: entry.holding, code: entry.code, amount: -entry.change };
    }),
  };
}
