/**
 * The seed's shapes (../shared/seed/000_0f00e2754bbcae0f.txt), written down independently of our Zod models
 * so that contract tests compare responses with the interface document, not with our own code.
 *
 * A shape maps each field to its type: 'string', 'integer', 'boolean', 'object', 'array', 'nullable'
 * (any value, possibly null), an array of one shape (`[shape]`), a nested shape, or `optional(type)` for
 * fields the seed marks "present only on some".
 */
export type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'nullable' | Shape | [FieldType] | { optional: FieldType };
export interface Shape {
  [field: string]: FieldType;
}

export const optional = (type: FieldType) => ({ optional: type });

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

/** The merchant envelope `{code, message, data}` around `data`. */
export const merchantEnvelope = (data: FieldType): Shape => ({ code: 'integer', message: 'string', data });

/** gamelist's body (also its 401 body, with data null). */
export const gameList = merchantEnvelope({ total: 'string', games: [gameRecordList] });

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
