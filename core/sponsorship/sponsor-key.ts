import * as z from 'zod/mini';

/**
 * The stage's gas sponsor (docs/claims.md "Sponsored claims"): a Sui Ed25519 key of its own (the SponsorKey secret
 * deployed, `sponsor-key.json` in DATA_DIR locally) whose address owns the SUI that pays the gas of players'
 * reward claims, and the limits the stage sets on what it pays. It is not the claim key: the claim key signs what
 * a verifier pays, this one only gas, so neither can be made to do the other's work.
 *
 * The setting is a Sui private key in bech32 (`suiprivkey1…`, what `sui keytool generate ed25519` prints), or the
 * sponsor settings as JSON: `{"key": "suiprivkey1…", "gas_cap": …, "player_daily_count": …, …}` (SponsorSetting:
 * every limit may be left out for its default).
 */

/** The limits a stage sets on the gas it pays; amounts in MIST (10^-9 SUI). */
export interface SponsorLimits {
  /** The gas budget of one sponsored transaction: the most it can cost the sponsor. */
  gasCap: bigint;
  /** Sponsored claims a player may have signed a UTC day, and the gas budgets they may reach together. */
  playerDailyCount: number;
  playerDailyGas: bigint;
  /** The same for all the players of one game (a studio may set its own lower, core/sponsorship/settings.ts). */
  gameDailyCount: number;
  gameDailyGas: bigint;
  /** Under this balance the sponsor signs nothing more (503) and logs the alarm the stage's metric filter watches. */
  lowBalance: bigint;
}

export const DEFAULT_LIMITS: SponsorLimits = {
  gasCap: 10_000_000n,
  playerDailyCount: 5,
  playerDailyGas: 50_000_000n,
  gameDailyCount: 1_000,
  gameDailyGas: 10_000_000_000n,
  lowBalance: 1_000_000_000n,
};

export interface GasSponsor {
  /** The sponsor's address (0x and 64 hex digits): the gas owner of every transaction it signs. */
  readonly address: string;
  readonly limits: SponsorLimits;
  /** The sponsor's signature of transaction data bytes (Sui's serialized signature, Base64). */
  signTransaction(bytes: Uint8Array): Promise<string>;
}

const mist = z.pipe(
  z.union([z.int().check(z.positive()), z.string().check(z.regex(/^[1-9]\d{0,18}$/))]),
  z.transform((value) => BigInt(value)),
);
const count = z.int().check(z.positive(), z.maximum(1_000_000));
const SponsorSetting = z.strictObject({
  key: z.string().check(z.startsWith('suiprivkey')),
  gas_cap: z.optional(mist),
  player_daily_count: z.optional(count),
  player_daily_gas: z.optional(mist),
  game_daily_count: z.optional(count),
  game_daily_gas: z.optional(mist),
  low_balance: z.optional(mist),
});

/** A new sponsor key, as the setting sponsorFromSetting takes. */
export async function generateSponsorKey(): Promise<string> {
  const { Ed25519Keypair } = await import('@mysten/sui/keypairs/ed25519');
  return Ed25519Keypair.generate().getSecretKey();
}

/** The sponsor of a setting; undefined for a blank one (the stage sponsors nothing: 503); an Error naming the problem. */
export async function sponsorFromSetting(setting: string | undefined): Promise<GasSponsor | undefined> {
  const text = setting?.trim();
  if (!text) return undefined;
  let parsed: z.infer<typeof SponsorSetting>;
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error('sponsor key: expected a suiprivkey1… key or the sponsor settings {key, gas_cap, …} as JSON');
    }
    const result = SponsorSetting.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`sponsor settings: ${issue.path.join('.') || 'the setting'}: ${issue.message}`);
    }
    parsed = result.data;
  } else {
    parsed = { key: text };
  }
  // Loaded with the setting: only a stage that sponsors needs the SDK's keys.
  const { Ed25519Keypair } = await import('@mysten/sui/keypairs/ed25519');
  let keypair: InstanceType<typeof Ed25519Keypair>;
  try {
    keypair = Ed25519Keypair.fromSecretKey(parsed.key);
  } catch {
    throw new Error('sponsor key: not a valid Ed25519 suiprivkey');
  }
  const limits: SponsorLimits = {
    gasCap: parsed.gas_cap ?? DEFAULT_LIMITS.gasCap,
    playerDailyCount: parsed.player_daily_count ?? DEFAULT_LIMITS.playerDailyCount,
    playerDailyGas: parsed.player_daily_gas ?? DEFAULT_LIMITS.playerDailyGas,
    gameDailyCount: parsed.game_daily_count ?? DEFAULT_LIMITS.gameDailyCount,
    gameDailyGas: parsed.game_daily_gas ?? DEFAULT_LIMITS.gameDailyGas,
    lowBalance: parsed.low_balance ?? DEFAULT_LIMITS.lowBalance,
  };
  if (limits.gasCap > limits.playerDailyGas) throw new Error('sponsor settings: gas_cap is more than player_daily_gas: no claim could be sponsored');
  return {
    address: keypair.toSuiAddress(),
    limits,
    signTransaction: async (bytes) => (await keypair.signTransaction(bytes)).signature,
  };
}
