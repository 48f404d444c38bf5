import { isProductionStage } from '../core/platform/stages.js';
import { attributeType, tableDefinition } from '../core/platform/table.js';

/**
 * The single table, from the same definition DynamoDB Local and the tests use (core/platform/table.ts).
 * Only key attributes are declared: DynamoDB is schemaless for everything else.
 */
const { partitionKey, sortKey, ttlAttribute, indexes, keysOnly, streamView } = tableDefinition;
const keyAttributes = [partitionKey, sortKey, ...Object.values(indexes).flat()];
const production = isProductionStage($app.stage);

/** SST's names of DynamoDB's stream views (SST maps them back: `new-and-old-images` -> NEW_AND_OLD_IMAGES). */
const sstStreamViews = { NEW_AND_OLD_IMAGES: 'new-and-old-images', NEW_IMAGE: 'new-image', OLD_IMAGE: 'old-image', KEYS_ONLY: 'keys-only' } as const;

export const table = new sst.aws.Dynamo('Table', {
  fields: Object.fromEntries(keyAttributes.map((name) => [name, attributeType(name) === 'N' ? ('number' as const) : ('string' as const)])),
  primaryIndex: { hashKey: partitionKey, rangeKey: sortKey },
  // Every attribute projected (SST's default, ALL) but for the keys-only indexes, as createTableInput does.
  globalIndexes: Object.fromEntries(
    Object.entries(indexes).map(([name, [hashKey, rangeKey]]) => [
      name,
      { hashKey, rangeKey, ...((keysOnly as readonly string[]).includes(name) ? { projection: 'keys-only' as const } : {}) },
    ]),
  ),
  ttl: ttlAttribute,
  // The stream the rank pages are kept from (infra/rank-pages.ts), with each item before and after its change.
  stream: sstStreamViews[streamView],
  transform: {
    // Set on every stage, not only production: SST turns point-in-time recovery on by default, and dev stages
    // hold throwaway data that is not worth paying continuous backups for. Production keeps the table even if
    // someone deletes it by hand (deletion protection) or `sst remove`s the stage (removal 'retain', sst.config.ts).
    table: {
      deletionProtectionEnabled: production,
      pointInTimeRecovery: { enabled: production },
    },
  },
});
