import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../functions/local/dynamo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** Starts one in-memory DynamoDB Local for the run and stops it afterwards. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
