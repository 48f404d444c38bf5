import { errorCodesTable } from './error-table.js';

/** `npm run error-codes`: prints the "Error codes" table of docs/api.md from the catalogues. */
console.log(errorCodesTable());
