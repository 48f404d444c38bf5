/** The metric counted each time the sponsor refuses a claim for its low balance (infra/alarms.ts raises an alarm on it). */
export const SPONSOR_BALANCE_LOW = 'SponsorBalanceLow';
