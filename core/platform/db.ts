import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DbOptions {
  /** DynamoDB Local's address; unset in a deployed stage, where the SDK finds the regional endpoint. */
  endpoint?: string;
  region?: string;
  /** With an endpoint: the credentials to sign with (a DynamoDB Local without -sharedDb keeps one database per
   * access key); default fixed local ones. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/**
 * The document client every domain module uses. Undefined attributes are dropped rather than rejected so
 * optional fields can be passed straight through from validated input.
 */
export function createDocumentClient({ endpoint, region, credentials }: DbOptions = {}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: region ?? 'local',
          // DynamoDB Local accepts any credentials; fixed ones keep a developer's real AWS profile out of it.
          credentials: credentials ?? { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : region
        ? { region }
        : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
