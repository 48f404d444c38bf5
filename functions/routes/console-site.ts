import * as z from 'zod/mini';
import { open } from '../../core/http/auth.js';
import { CONSOLE_FILES } from '../../core/http/console-assets.js';
import { defineGroup } from '../../core/http/operation.js';

const fileNames = Object.keys(CONSOLE_FILES) as [keyof typeof CONSOLE_FILES, ...(keyof typeof CONSOLE_FILES)[]];

/**
 * The operator console (docs/console.md), served by the meta function on the main base: its page and its two
 * files. Open: the page holds no data; everything it shows comes from the API, called with the token its user
 * signs in with.
 */
export const consoleSiteRoutes = defineGroup('meta', 'main', {
  console: {
    name: 'console',
    method: 'GET',
    path: '/console',
    tag: 'platform',
    auth: open,
    tableFree: true,
    summary: 'The operator console for studios and admins (HTML)',
    description:
      'A single page: studios run their merchant, games, projects, goods, boards, orders and tokens; admins review merchants and watch the stage. ' +
      'Every call it makes is an operation of this document, with the token its user signs in with.',
    status: 200,
    envelope: 'bare',
    response: z.string(),
    errors: { 503: 'the console was not built for this deployment' },
    codes: ['console.unbuilt'],
    raw: true,
    mediaTypes: ['text/html'],
  },
  console_asset: {
    name: 'console asset',
    method: 'GET',
    path: '/console/assets/:file',
    tag: 'platform',
    auth: open,
    tableFree: true,
    summary: 'A file of the operator console (its script or stylesheet)',
    description:
      '`v` is the version the page asks for (a hash of the file): the answer may be kept for a year (`Cache-Control: public, max-age=31536000, immutable`), and a changed file is a new URL. ' +
      'Gzipped when the request accepts gzip.',
    params: z.object({ file: z.enum(fileNames) }),
    query: z.object({ v: z.optional(z.string().check(z.maxLength(64))) }),
    status: 200,
    envelope: 'bare',
    response: z.string(),
    errors: { 400: `file is not one of ${fileNames.join(', ')}, or v is longer than 64 characters`, 503: 'the console was not built for this deployment' },
    codes: ['console.unbuilt'],
    raw: true,
    mediaTypes: ['text/javascript', 'text/css'],
  },
});
