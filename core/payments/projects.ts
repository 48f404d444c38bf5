import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { projectKey } from '../access/keys.js';
import { merchantOrNotFound } from '../merchants/merchants.js';
import { merchantKey } from '../merchants/keys.js';
import { readItems } from '../platform/batch.js';
import { conditionalFailure, isConditionalFailure } from '../platform/conditional-failure.js';
import { nextId } from '../platform/counters.js';
import type { PaymentsDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from './errors.js';
import { accessError } from '../access/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { formatUnits } from './money.js';
import { storedAmount, toBigInt } from '../shared/amounts.js';
import { PriceLevel, Project, type LevelSave, type ProjectCreate, type ProjectUpdate } from './models.js';

/**
 * Projects (what players buy tickets of) and their price levels, managed by the owner merchant.
 * - "project by name": pk `PROJECT#<name>`, sk `PROJECT`;
 * - "price level of a project": pk `PROJECT#<name>`, sk `LEVEL#<level, zero-padded>` (a level number is
 *   unique in its project; `priceId` is a platform-wide integer id);
 * - "all projects": gsi1pk `PROJECTS`, gsi1sk name; "projects of a merchant": gsi2pk
 *   `MERCHANT_PROJECTS#<accountId>`, gsi2sk name.
 */
export const StoredProject = z.lazy(() => z.extend(objectOf(Project), { accountId: z.string() }));
export type StoredProject = z.infer<typeof StoredProject>;
export const StoredLevel = z.lazy(() =>
  z.extend(z.omit(objectOf(PriceLevel), { amount: true, amount_base: true, apple_product_id: true, google_product_id: true }), {
    /** The price in base units: a DynamoDB number, exact to u64 (core/shared/amounts.ts). */
    amount_base: storedAmount,
    /** Absent when the level is sold in no app store. */
    apple_product_id: z.optional(z.string()),
    google_product_id: z.optional(z.string()),
  }),
);
export type StoredLevel = z.infer<typeof StoredLevel>;
/** A project or level item as read, if there is one. The answers (toProject, toPriceLevel) keep the item's own attribute order. */
export const storedProject = (item: Record<string, unknown> | undefined) => item && StoredProject.parse(item);
export const storedLevel = (item: Record<string, unknown> | undefined) => item && StoredLevel.parse(item);

export { levelKey } from './order-keys.js';
import { LEVEL_PREFIX, levelKey, merchantProjectsPartition } from './order-keys.js';

const strip = <T>({ pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, accountId: _o, ...rest }: Record<string, unknown>) => rest as T;

export const toProject = (item: Record<string, unknown>) => strip<Project>(item);
export function toPriceLevel(item: Record<string, unknown>): PriceLevel {
  const { amount_base, apple_product_id, google_product_id, ...level } = strip<StoredLevel>(item);
  const base = toBigInt(amount_base);
  return {
    ...level,
    amount: formatUnits(base, level.precison),
    amount_base: base.toString(),
    apple_product_id: apple_product_id ?? null,
    google_product_id: google_product_id ?? null,
  };
}

export async function createProject(deps: PaymentsDeps, caller: TokenClaims, input: z.infer<typeof ProjectCreate>) {
  // The merchant and the name's project in one request: a taken name is refused before an id is taken, so a
  // refused create writes nothing (a concurrent create of the same name, refused by the put below, wastes one).
  const [merchantItem, taken] = await readItems(deps, [merchantKey(caller.sub), projectKey(input.project_name)]);
  const merchant = merchantOrNotFound(merchantItem);
  if (taken) throw paymentError('project.name_taken', `project_name: project ${input.project_name} exists already`);
  const now = deps.now().toISOString();
  const project: StoredProject = {
    project_id: await nextId(deps, 'project'),
    ...input,
    status: 1,
    merchant_id: merchant.id,
    accountId: caller.sub,
    create_time: now,
    update_time: now,
  };
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...projectKey(input.project_name),
          type: 'project',
          ...project,
          gsi1pk: 'PROJECTS',
          gsi1sk: input.project_name,
          gsi2pk: merchantProjectsPartition(caller.sub),
          gsi2sk: input.project_name,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionalFailure(error)) throw paymentError('project.name_taken', `project_name: project ${input.project_name} exists already`);
    throw error;
  }
  return toProject(project as unknown as Record<string, unknown>);
}

export async function updateProject(deps: PaymentsDeps, caller: TokenClaims, input: z.infer<typeof ProjectUpdate>) {
  const { project_name, ...changes } = input;
  const sets = Object.entries(changes).filter(([, value]) => value !== undefined);
  // The route refuses such a body at the edge (400, docs/api.md "Payments and tickets"); a caller of this function gets the same.
  if (sets.length === 0) throw paymentError('project.nothing_to_change', 'body: nothing to change: give at least one of description, receive_address, status');
  const out = await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: projectKey(project_name),
        UpdateExpression: `SET update_time = :now${sets.map(([field]) => `, #${field} = :${field}`).join('')}`,
        ConditionExpression: 'accountId = :me',
        ExpressionAttributeNames: Object.fromEntries(sets.map(([field]) => [`#${field}`, field])),
        ExpressionAttributeValues: {
          ':now': deps.now().toISOString(),
          ':me': caller.sub,
          ...Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value])),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    )
    .catch((error: unknown) => {
      const failed = conditionalFailure(error);
      if (!failed) throw error;
      throw failed.item
        ? accessError('access.other_owner', `project_name: project ${project_name} belongs to another merchant`)
        : paymentError('project.not_found', `project_name: no project ${project_name}`);
    });
  return toProject(out.Attributes!);
}

/** Creates a level, or changes the price and tickets of an existing one (it keeps its priceId). */
export async function saveLevel(deps: PaymentsDeps, _caller: TokenClaims, input: z.infer<typeof LevelSave>): Promise<PriceLevel> {
  // The project (for its owner, coin and precision) and the level share a partition: one read for both.
  const [projectItem, existing] = await readItems(deps, [projectKey(input.project_name), levelKey(input.project_name, input.level)]);
  const project = storedProject(projectItem);
  // The authorization layer checked the project is the caller's (the route's policy); it is read for its coin.
  if (!project) throw paymentError('project.not_found', `project_name: no project ${input.project_name}`);
  const level: StoredLevel = {
    priceId: storedLevel(existing)?.priceId ?? (await nextId(deps, 'price')),
    project_id: project.project_id,
    project_name: project.project_name,
    level: input.level,
    amount_base: BigInt(input.amount),
    coin_type: project.coin_type,
    precison: project.precison,
    tickets: input.tickets,
    status: input.status,
    // A product id left out keeps the saved one; null unlinks it.
    ...storeProduct('apple_product_id', input.apple_product_id, existing),
    ...storeProduct('google_product_id', input.google_product_id, existing),
  };
  await deps.db
    .send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...levelKey(input.project_name, input.level), type: 'price_level', ...level },
        // A concurrent create of the same level must not give it two priceIds.
        ConditionExpression: existing ? 'priceId = :id' : 'attribute_not_exists(pk)',
        ...(existing ? { ExpressionAttributeValues: { ':id': level.priceId } } : {}),
      }),
    )
    .catch((error: unknown) => {
      if (isConditionalFailure(error)) throw platformError('data.changed_concurrently', 'level: changed concurrently; retry');
      throw error;
    });
  return toPriceLevel(level as unknown as Record<string, unknown>);
}

function storeProduct(field: 'apple_product_id' | 'google_product_id', given: string | null | undefined, existing: Record<string, unknown> | undefined) {
  const value = given === undefined ? existing?.[field] : given;
  return typeof value === 'string' ? { [field]: value } : {};
}

/** user/project: projects on sale (one Query; projects are few, so the on-sale filter reads little). */
export async function projectsOnSale(deps: PaymentsDeps): Promise<Project[]> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: '#status = :on',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': 'PROJECTS', ':on': 1 },
    }),
  );
  return (out.Items ?? []).map(toProject);
}

/** The caller merchant's projects (one Query). */
export async function projectsOf(deps: PaymentsDeps, accountId: string): Promise<Project[]> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': merchantProjectsPartition(accountId) },
    }),
  );
  return (out.Items ?? []).map(toProject);
}

/** user/project/level: a project's levels on sale, by level (one Query; 404 for an unknown project is not
 * worth a second read: an unknown project simply has no levels). */
export async function levelsOf(deps: PaymentsDeps, name: string): Promise<PriceLevel[]> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :level)',
      FilterExpression: '#status = :on',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': projectKey(name).pk, ':level': LEVEL_PREFIX, ':on': 1 },
    }),
  );
  return (out.Items ?? []).map(toPriceLevel);
}
