import { policyTable } from '../../core/http/policy-text.js';
import { routeTable } from '../../functions/routes/index.js';

/** `npm run policy-table`: prints the policy table of docs/security.md from the route table. */
console.log(policyTable(routeTable));
