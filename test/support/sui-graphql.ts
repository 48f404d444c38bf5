import { answerGraphQL, graphQLStoreFailure, type GraphQLRequest } from '../../tools/local/dev-chain/graphql.js';
import { ChainScript, startLoopback, type Loopback } from './sui-node.js';

/**
 * A loopback Sui GraphQL service over a chain script (tools/local/dev-chain/graphql.ts answers it as the
 * real service does), with the loopback's logging and scripted failures.
 */
export interface SuiGraphQL extends Loopback {
  script: ChainScript;
  /** The logged queries with their variables. */
  queries(): { n: number; query: string; variables: Record<string, unknown> }[];
}

export async function startSuiGraphQL(script = new ChainScript()): Promise<SuiGraphQL> {
  const loopback = await startLoopback((body) => answerGraphQL({ state: script }, body), graphQLStoreFailure);
  return {
    ...loopback,
    script,
    queries: () => loopback.requests.map((r) => ({ n: r.n, query: (r.body as GraphQLRequest).query, variables: (r.body as GraphQLRequest).variables ?? {} })),
  };
}
