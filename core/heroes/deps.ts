import type { ChainDeps } from '../chain/deps.js';

/** What heroes need besides the platform's part: the chain, where the NFTs and their bindings are read. */
export type HeroesDeps = ChainDeps;
