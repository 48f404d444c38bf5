import { errorCatalogue } from '../platform/errors.js';

/** The error codes of goods, their orders (outer orders) and rewards paid by bill. */
export const goodsErrors = errorCatalogue({
  /** no goods have this id */
  'goods.not_found': 'NotFound',
  /** the goods are sold in another project */
  'goods.other_project': 'InvalidInput',
  /** the goods are not on sale */
  'goods.not_on_sale': 'Conflict',
  /** no order has this outerOrderId */
  'goods.order_not_found': 'NotFound',
  /** the outerOrderId was used for an order with other contents */
  'goods.order_id_reused': 'InvalidInput',
  /** the billNo was used for another reward */
  'reward.bill_reused': 'Conflict',
  /** the user has no account (a reward is paid to a user who has signed in) */
  'reward.no_account': 'NotFound',
});
export const goodsError = goodsErrors.fail;
