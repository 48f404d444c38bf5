/**
 * How the chain names things, as plain functions of text: kept apart from source.ts, which loads the node clients
 * (graphql.ts, grpc.ts, jsonrpc.ts) that use these, so that no file imports one that imports it back.
 */

/**
 * A Move type with every address in full (0x and 64 lower-case hex digits), the form both node APIs answer
 * with: `0x2::coin::Coin<0x2::sui::SUI>` and `0x0…02::coin::Coin<0x0…02::sui::SUI>` name the same type, and
 * configured types are compared with the types of events in this form.
 */
export function canonicalType(type: string): string {
  return type.replace(/0x([0-9a-fA-F]{1,64})(?=::)/g, (_, hex: string) => `0x${hex.toLowerCase().padStart(64, '0')}`);
}

/**
 * The Sui network a node URL serves, for the SDK clients' required `network` option. The SDK uses it only to
 * pick the Move Registry service that resolves `@org/package` names while building transactions, which these
 * read-only clients never do; a URL naming no public network (a loopback or an operator's own node) is
 * 'localnet'.
 */
export function networkOf(url: string): 'mainnet' | 'testnet' | 'devnet' | 'localnet' {
  const host = new URL(url).hostname;
  return (['mainnet', 'testnet', 'devnet'] as const).find((network) => host.split(/[.-]/).includes(network)) ?? 'localnet';
}
