import { errorCatalogue } from '../platform/errors.js';

/** The error codes of goods, their orders (outer orders) and rewards paid by bill. */
export const goodsErrors = errorCatalogue({
  'goods.not_found': ['NotFound', 'no goods have this id'],
  'goods.other_project': ['InvalidInput', 'the goods are sold in another project'],
  'goods.not_on_sale': ['Conflict', 'the goods are not on sale'],
  'goods.order_not_found': ['NotFound', 'no order has this outerOrderId'],
  'goods.order_id_reused': ['InvalidInput', 'the outerOrderId was used for an order with other contents'],
  'reward.bill_reused': ['Conflict', 'the billNo was used for another reward'],
  'reward.no_account': ['NotFound', 'the user has no account (a reward is paid to a user who has signed in)'],
});
export const goodsError = goodsErrors.fail;
