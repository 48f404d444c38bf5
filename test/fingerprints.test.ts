import { describe, expect, it } from 'vitest';
import { fingerprintOf, sameRequest } from '../core/platform/idempotency.js';

describe('sameRequest', () => {
  const request = { goodsId: 7, userId: 'u', quantity: 2, projectName: 'p' };
  const earlier = () => JSON.stringify([7, 'u', 2, 'p']);

  it('recognises a request by fingerprintOf, whatever the order of its fields', () => {
    expect(sameRequest(fingerprintOf({ projectName: 'p', quantity: 2, userId: 'u', goodsId: 7 }), request, earlier)).toBe(true);
  });

  it('recognises a record stored in the earlier form, and no other request', () => {
    expect(sameRequest('[7,"u",2,"p"]', request, earlier)).toBe(true);
    expect(sameRequest('[7,"u",3,"p"]', request, earlier)).toBe(false);
    expect(sameRequest(fingerprintOf({ ...request, quantity: 3 }), request, earlier)).toBe(false);
    expect(sameRequest(undefined, request, earlier)).toBe(false);
  });
});
