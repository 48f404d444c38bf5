import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CursorKey } from './cursors.js';
import type { FileStore } from './files.js';
import type { TokenService } from './tokens.js';

/**
 * What every domain operation needs from the outside world: the stage, the table, the clock, tokens, files and
 * the cursor key, passed in rather than imported so the same code runs in a Lambda, in the local server and in
 * tests (each test file on its own table). A domain that needs more (a chain, a claim key, store settings) declares it in its own
 * deps.ts on top of this; the whole set is assembled above the domains (core/deps.ts).
 */
export interface PlatformDeps {
  stage: string;
  production: boolean;
  db: DynamoDBDocumentClient;
  table: string;
  tokens: TokenService;
  files: FileStore;
  /** Seals the cursors of cursor-paged reads (core/platform/cursors.ts). */
  cursorKey: CursorKey;
  now: () => Date;
  /**
   * The most standings a board's live head keeps (core/rankings/rank-head.ts HEAD_SIZE unless set): a test or the
   * bench sets fewer to rank a small board from its snapshot too.
   */
  rankHeadSize?: number;
}
