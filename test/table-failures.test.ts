import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { TABLE_RETRY_AFTER_SECONDS, tableUnavailable } from '../core/platform/table-failures.js';

/**
 * Which DynamoDB failures the error responder answers with the documented 503 (core/platform/table-failures.ts):
 * those after which nothing was written and the same request may simply be sent again.
 */
describe('tableUnavailable', () => {
  it('answers a lone write refused because a transaction in flight held its item with 503 table.busy and Retry-After', () => {
    const refused = tableUnavailable(new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} }));
    expect(refused).toMatchObject({ code: 'table.busy', retryAfterSeconds: TABLE_RETRY_AFTER_SECONDS });
  });

  it("leaves a failed condition to the operation: it decides the answer, not the table's availability", () => {
    expect(tableUnavailable(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }))).toBeUndefined();
  });
});
