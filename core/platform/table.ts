/**
 * The single table: its definition (shared by infra/table.ts, the local server and the tests, so all three
 * build the same table) and the key vocabulary. Every access pattern and the keys that serve it are listed in
 * docs/data-model.md; key builders live in the domain modules next to the pattern they serve.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /** Secondary indexes: name -> [partition attribute, sort attribute]. Projection ALL but for `keysOnly`. */
  indexes: {
    gsi1: ['gsi1pk', 'gsi1sk'],
    gsi2: ['gsi2pk', 'gsi2sk'],
    gsi3: ['gsi3pk', 'gsi3sk'],
    // Leaderboards: sort keys are numbers (a score), so `ADD score :n` moves the player on the board in the
    // same atomic write that counts the points.
    gsi4: ['gsi4pk', 'gsi4sk'],
    gsi5: ['gsi5pk', 'gsi5sk'],
    // A player's items that no key leads to (core/platform/players.ts): found only to delete them.
    gsi6: ['gsi6pk', 'gsi6sk'],
    // A project's pay orders, newest first, in shards (core/payments/order-keys.ts): a studio's orders list.
    gsi7: ['gsi7pk', 'gsi7sk'],
  },
  /** Indexes that project only the keys: nothing reads their items' attributes through them, and an update
   * that leaves their two key attributes alone writes nothing to them. */
  keysOnly: ['gsi6'],
  /** The table's stream: every change with the item before and after it. */
  streamView: 'NEW_AND_OLD_IMAGES',
  /** Key attributes that are numbers; every other key attribute is a string. */
  numberAttributes: ['gsi4sk', 'gsi5sk'],
} as const;

export function attributeType(name: string): 'S' | 'N' {
  return (tableDefinition.numberAttributes as readonly string[]).includes(name) ? 'N' : 'S';
}

/**
 * The CreateTable input for DynamoDB Local and the tests (infra/table.ts maps the same definition to SST). The
 * stream is on unless `stream: false`: test tables that no consumer reads leave it off, because DynamoDB Local
 * keeps a stream record of every write and the whole suite runs several times slower with it.
 */
export function createTableInput(tableName: string, { stream = true }: { stream?: boolean } = {}) {
  const { partitionKey, sortKey, indexes } = tableDefinition;
  const attributes = new Set<string>([partitionKey, sortKey]);
  for (const [pk, sk] of Object.values(indexes)) {
    attributes.add(pk);
    attributes.add(sk);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    // The boards' head consumer reads score items' changes, before and after (core/rankings/rank-stream.ts).
    ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamView } } : {}),
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: attributeType(name) })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: Object.entries(indexes).map(([name, [pk, sk]]) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: pk, KeyType: 'HASH' as const },
        { AttributeName: sk, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: (tableDefinition.keysOnly as readonly string[]).includes(name) ? ('KEYS_ONLY' as const) : ('ALL' as const) },
    })),
  };
}

/** Zero-pads a non-negative integer so that string order equals numeric order in sort keys. */
export function sortableInt(value: number, width = 12): string {
  return String(value).padStart(width, '0');
}
