import { createAccount, type Role } from '../../core/merchants/accounts.js';
import { createMerchant, setMerchantStatus } from '../../core/merchants/merchants.js';
import { MerchantPayload, MerchantStatus } from '../../core/merchants/models.js';
import type { Deps } from '../../core/deps.js';

let counter = 0;

/** A console account with a real merchant token, made through the domain (the login route is tested on its own). */
export async function accountWithToken(deps: Deps, role: Role = 'merchant') {
  const email = `user${++counter}-${Date.now()}@example.com`;
  const account = await createAccount(deps, { email, password: 'correct horse battery', role });
  const { token } = await deps.tokens.issue('merchant', account.accountId, { role, email });
  const claims = await deps.tokens.verify(token, ['merchant']);
  return { ...account, token, claims };
}

/** An account whose merchant exists, active unless told otherwise. */
export async function merchantWithToken(deps: Deps, status: number = MerchantStatus.active) {
  const owner = await accountWithToken(deps);
  const merchant = await createMerchant(deps, owner.claims, MerchantPayload.parse({ merchant_name: `Studio ${owner.email}` }));
  if (status !== MerchantStatus.pending) await setMerchantStatus(deps, merchant.id, status);
  return { ...owner, merchant: { ...merchant, status } };
}
