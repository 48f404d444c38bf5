/**
 * The compatibility contract's shapes (docs/api.md, "The compatibility contract"), written down independently of
 * our Zod models so that contract tests compare responses with the contract, not with our own code.
 *
 * A shape maps each field to its type: 'string', 'integer', 'boolean', 'object', 'array', 'nullable'
 * (any value, possibly null), an array of one shape (`[shape]`), a nested shape, or `optional(type)` for
 * fields the contract has on some records only.
 */
export type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'nullable' | Shape | [FieldType] | { optional: FieldType };
export interface Shape {
  [field: string]: FieldType;
}

export const optional = (type: FieldType) => ({ optional: type });

/** The hero base's error body (the contract's 401 of hero upgrade): `message`, `statusCode`. */
export const heroError: Shape = { message: 'string', statusCode: 'integer' };

/** Game record (in the new-merchant page response). */
export const gameRecordNewMerchant: Shape = {
  id: 'integer',
  game_url: 'string',
  describe: 'string',
  logo: 'string',
  merchant_id: 'integer',
  code: 'string',
  head_image: 'string',
  gameName: 'string',
  dev: 'string',
  genre: 'string',
  platform: ['string'],
  tags: ['string'],
  create_time: 'string',
  images: ['string'],
  link: 'object',
  releaseDate: 'string',
  dcNum: optional('string'),
  dclink: optional('string'),
};

/** Game record (in the games list response). */
export const gameRecordList: Shape = {
  id: 'integer',
  game_url: 'string',
  describe: 'string',
  logo: 'string',
  merchant_id: 'integer',
  code: 'string',
  back_ground_image: 'nullable',
  social_links: 'nullable',
  merchant_email: 'string',
  account_id: 'string',
  merchant_name: 'string',
};

/** update_single_game 201. */
export const gameUpdated: Shape = { response: 'string', status: 'integer', message: 'string', name: 'string' };

/** Token pair (wallet registration response). */
export const tokenPair: Shape = { platformToken: { accessToken: 'string' }, gameToken: { accessToken: 'string' } };

/** Pay order record (recharge order response; the coins list element adds project_name). */
export const payOrder: Shape = {
  id: 'integer',
  project_id: 'integer',
  deposit_id: 'nullable',
  amount: 'string',
  wallet_address: 'string',
  coin_type: 'string',
  tx_type: 'integer',
  status: 'integer',
  created_at: 'string',
  updated_at: 'string',
  user_id: 'string',
  level: 'integer',
  precison: 'integer',
};

/** Account/wallet record (order completion response). */
export const accountRecord: Shape = {
  id: 'integer',
  create_time: 'string',
  update_time: 'string',
  wallet_address: 'string',
  wallet_type: 'integer',
  status: 'integer',
  uid: 'string',
  private_key: 'string',
};

/** Vendor payment event record. */
export const vendorPaymentEvent: Shape = {
  id: 'integer',
  bill_no: 'string',
  amount: 'string',
  fromer: 'string',
  toer: 'string',
  event_type: 'integer',
  cursor: { eventSeq: 'string', txDigest: 'string' },
  created_at: 'string',
  updated_at: 'string',
};

/** `{data, statusCode, message, totalPage}` (coins list, minus_tickets, vendor pay query). */
export const pagedEnvelope: Shape = { data: 'nullable', statusCode: 'integer', message: 'string', totalPage: 'integer' };

/** The merchant envelope `{code, message, data}` around `data`. */
export const merchantEnvelope = (data: FieldType): Shape => ({ code: 'integer', message: 'string', data });

/** gamelist's body, and also its 401 body (the contract fixes it so: it resembles the success body, `data: {total: "0", games: []}`). */
export const gameList = merchantEnvelope({ total: 'string', games: [gameRecordList] });

/** Rank entry (current rankings). */
export const rankEntry: Shape = { total: 'string', game_player_id: 'string', game_player_name: 'string' };

/** gameRank's body: four arrays of Rank entry, spelled as the contract spells them. */
export const gameRank = merchantEnvelope({
  gameWeekKillRank: [rankEntry],
  gameWeekWinRank: [rankEntry],
  gameMothKillRank: [rankEntry],
  gameMothWinRank: [rankEntry],
});

/** Checks `value` against `type`; returns the list of mismatches as `path: expected X, got Y`. */
export function mismatches(value: unknown, type: FieldType, path = '$'): string[] {
  if (typeof type === 'object' && !Array.isArray(type) && 'optional' in type && Object.keys(type).length === 1) {
    return value === undefined ? [] : mismatches(value, (type as { optional: FieldType }).optional, path);
  }
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  switch (type) {
    case 'string':
    case 'boolean':
      return typeof value === type ? [] : [`${path}: expected ${type}, got ${got}`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${path}: expected integer, got ${got} ${JSON.stringify(value)}`];
    case 'object':
      return got === 'object' ? [] : [`${path}: expected object, got ${got}`];
    case 'nullable':
      return value === undefined ? [`${path}: missing`] : [];
  }
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) return [`${path}: expected array, got ${got}`];
    return value.flatMap((item, i) => mismatches(item, type[0], `${path}[${i}]`));
  }
  if (got !== 'object') return [`${path}: expected object, got ${got}`];
  const record = value as Record<string, unknown>;
  return Object.entries(type as Shape).flatMap(([field, fieldType]) => {
    if (!(field in record) && !(typeof fieldType === 'object' && 'optional' in fieldType)) return [`${path}.${field}: missing`];
    return mismatches(record[field], fieldType, `${path}.${field}`);
  });
}

/** History rank entry (Game history rank's `data` elements; also rewrad_history's). */
export const historyEntry: Shape = {
  id: 'integer',
  season_type: 'integer',
  create_time: 'string',
  season_range: 'string',
  game_code: 'string',
  platform_player_id: 'string',
  wallet_address: 'string',
  rank: 'integer',
  achievement: 'integer',
  reward_amount: 'integer',
  status: 'integer',
};

/** Game history rank's body: the merchant envelope around an array of History rank entry. */
export const historyRank = merchantEnvelope([historyEntry]);
