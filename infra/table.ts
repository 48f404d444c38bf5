import { isProductionStage } from '../core/platform/stages.js';
import { attributeType, tableDefinition } from '../core/platform/table.js';

/**
 * The single table, from the same definition DynamoDB Local and the tests use (core/platform/table.ts).
 * Only key attributes are declared: DynamoDB is schemaless for everything else.
 */
const { partitionKey, sortKey, ttlAttribute, indexes } = tableDefinition;
const keyAttributes = [partitionKey, sortKey, ...Object.values(indexes).flat()];
const production = isProductionStage($app.stage);

export const table = new sst.aws.Dynamo('Table', {
  fields: Object.fromEntries(keyAttributes.map((name) => [name, attributeType(name) === 'N' ? ('number' as const) : ('string' as const)])),
  primaryIndex: { hashKey: partitionKey, rangeKey: sortKey },
  // SST projects every attribute (ALL), as createTableInput does.
  globalIndexes: Object.fromEntries(Object.entries(indexes).map(([name, [hashKey, rangeKey]]) => [name, { hashKey, rangeKey }])),
  ttl: ttlAttribute,
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
