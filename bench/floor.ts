import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';

/**
 * The floor bundle of the cold-init measure: only Hono, its Lambda adapter and the DynamoDB document client,
 * bundled exactly like a group's function. A group's bundle is judged by its ratio to this one.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const app = new Hono();
app.get('/', (c) => c.json({ ok: typeof db.send === 'function' }));

export const handler = handle(app);
