/**
 * The sections of the API reference: each operation declares the one it belongs to (OperationSpec `tag`), by
 * what it is for, whichever function serves it (its group is a deployment matter: docs/api.md, "The API
 * reference"). The OpenAPI documents list them in this order, each with its description; a section no operation
 * of a base names is left out of that base's document.
 */
export const TAGS = [
  {
    name: 'studios',
    description:
      "Studio accounts: signing in to the console, the merchant record and its review by the platform's admins, server tokens and their revocation, image uploads.",
  },
  {
    name: 'games',
    description: "The game catalogue: a studio's games, their public pages and lists, and the games' on-chain ids.",
  },
  {
    name: 'players',
    description:
      "Players' identity and data: signing in with a Sui wallet or zkLogin, game tokens, social accounts, and a player's export and deletion of their data.",
  },
  {
    name: 'tickets and payments',
    description:
      "Projects and their price levels, recharge orders paid on chain, ticket balances and spending, vendor goods and rewards, and the studio's view of its orders and stranded payments.",
  },
  {
    name: 'boards and rewards',
    description:
      "Game servers' score reports, the weekly and monthly boards, each game's reward table, the settled seasons' history and the claims of their rewards.",
  },
  {
    name: 'leagues',
    description: "Each game's league: its tiers and cohorts, set by the studio, and a player's tier and cohort board in the current season.",
  },
  {
    name: 'sponsored claims',
    description: "Reward claims whose gas the stage pays: a player's sponsored redemption, and each studio's sponsorship of its game.",
  },
  {
    name: 'app stores',
    description: "Orders paid through the App Store and Google Play: purchase verification and the stores' server notifications.",
  },
  {
    name: 'partner store',
    description:
      "The partner store, one per region: its OAuth authorization server, its users, currencies, items and pets, and the admins' registration of its OAuth clients.",
  },
  {
    name: 'hero game',
    description: "The hero game on its own base: heroes bound from NFTs, their upgrades paid in tickets, and the game's configuration.",
  },
  {
    name: 'platform',
    description:
      "The service itself: its home page, the API reference and its OpenAPI document, the health check and the token keys; on the main base also the operator console and the admins' stage overview.",
  },
] as const satisfies readonly { name: string; description: string }[];

/** The section of the reference an operation is listed under. */
export type Tag = (typeof TAGS)[number]['name'];
