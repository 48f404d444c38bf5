import { defineGroup } from '../../core/http/operation.js';
import { adminOverviewOps } from './overview.js';
import { adminStoreClientOps } from './store-clients.js';

/**
 * The admin console's group: operations only admins call, whose code no other group needs (the stage overview,
 * the partner store's clients). A function of its own, so the consoles' inner group does not load it at a cold
 * start (docs/performance.md).
 */
export const adminConsoleRoutes = defineGroup('admin-console', 'main', { ...adminOverviewOps, ...adminStoreClientOps });
