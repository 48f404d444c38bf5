import type { ChainDeps } from '../chain/deps.js';

/** What payments need besides the platform's part: the chain, where orders are paid. */
export type PaymentsDeps = ChainDeps;
