/**
 * What the gas sponsor agrees to pay for (docs/security.md "What the sponsor key signs"): a transaction kind that
 * is exactly one call of the game's claim function, `<package>::<module>::<function><coin>(verifier, message,
 * signature, clock)`, for the entry's current claim, and nothing else: no other command, no input beyond the
 * call's four, no use of the gas coin (which is the sponsor's). The sender is not in the kind: the sponsor sets it
 * to the claim's recipient when it builds the transaction, so the call pays no one but the one it names.
 *
 * `kindRefusal` answers what is wrong in words that name it (the 400's message), or undefined when the kind is
 * exactly the call; it never throws on bytes, however malformed.
 */

/** The one call a claim's sponsored transaction may make. */
export interface ClaimCall {
  /** The game's claim function: its package (0x and 64 hex digits), module and function. */
  target: { package: string; module: string; function: string };
  /** The claim's coin as a Move type, e.g. `0x2::sui::SUI`. */
  coinType: string;
  /** The game's verifier object (the claim's `game`). */
  verifier: string;
  /** The claim's signed bytes and its signature, as the verifier takes them. */
  message: Uint8Array;
  signature: Uint8Array;
}

const CLOCK = `0x${'0'.repeat(63)}6`;

type Argument = { $kind: string; Input?: number };
type CallArg = {
  $kind: string;
  Pure?: { bytes: string };
  Object?: { $kind: string; SharedObject?: { objectId: string; mutable: boolean } };
};

export async function kindRefusal(kindBytes: Uint8Array, expected: ClaimCall): Promise<string | undefined> {
  // Loaded on first use: only sponsored claims need the SDK's BCS.
  const { bcs } = await import('@mysten/sui/bcs');
  const { normalizeStructTag, normalizeSuiAddress, toBase64 } = await import('@mysten/sui/utils');
  let kind: ReturnType<typeof bcs.TransactionKind.parse>;
  try {
    kind = bcs.TransactionKind.parse(kindBytes);
  } catch {
    return 'transaction_kind: not the BCS of a Sui transaction kind (build it with onlyTransactionKind)';
  }
  const program = kind.ProgrammableTransaction;
  if (!program) return `transaction_kind: a ${kind.$kind} transaction; only a programmable transaction is sponsored`;
  if (program.commands.length !== 1)
    return `transaction_kind: ${program.commands.length} commands; a sponsored claim is one command, the claim call, and nothing beside it`;
  const call = program.commands[0]!.MoveCall;
  if (!call) return `transaction_kind: the command is ${program.commands[0]!.$kind}; a sponsored claim is one call of the game's claim function`;
  const target = `${normalizeSuiAddress(call.package)}::${call.module}::${call.function}`;
  const wanted = `${normalizeSuiAddress(expected.target.package)}::${expected.target.module}::${expected.target.function}`;
  if (target !== wanted) return `transaction_kind: calls ${target}, not the game's claim function ${wanted}`;
  const coin = normalizeStructTag(expected.coinType);
  if (call.typeArguments.length !== 1 || normalizeStructTag(call.typeArguments[0]!) !== coin)
    return `transaction_kind: the call's type argument must be the claim's coin ${coin}`;
  if (call.arguments.length !== 4)
    return `transaction_kind: the call takes ${call.arguments.length} arguments; the claim function takes four (verifier, message, signature, clock)`;
  const args = call.arguments as Argument[];
  const inputs = program.inputs as CallArg[];
  if (args.some((arg) => arg.$kind !== 'Input'))
    return 'transaction_kind: every argument of the call must be an input of the transaction (not the gas coin, which is the sponsor’s, nor a result)';
  const used = args.map((arg) => arg.Input!);
  if (inputs.length !== 4 || new Set(used).size !== 4)
    return `transaction_kind: ${inputs.length} inputs; a sponsored claim takes exactly the call's four, each once`;
  const [verifier, message, signature, clock] = used.map((i) => inputs[i]!);
  const shared = (input: CallArg) => input.Object?.SharedObject;
  const verifierRef = shared(verifier!);
  if (!verifierRef || normalizeSuiAddress(verifierRef.objectId) !== normalizeSuiAddress(expected.verifier) || !verifierRef.mutable)
    return `transaction_kind: the first argument must be the game's verifier ${normalizeSuiAddress(expected.verifier)}, shared and mutable`;
  const pureVector = (bytes: Uint8Array) => toBase64(bcs.vector(bcs.u8()).serialize(bytes).toBytes());
  if (message!.Pure?.bytes !== pureVector(expected.message)) return "transaction_kind: the second argument must be the entry's current claim message";
  if (signature!.Pure?.bytes !== pureVector(expected.signature))
    return "transaction_kind: the third argument must be the signature of the entry's current claim";
  const clockRef = shared(clock!);
  if (!clockRef || normalizeSuiAddress(clockRef.objectId) !== CLOCK || clockRef.mutable)
    return 'transaction_kind: the fourth argument must be the Clock (0x6), immutable';
  return undefined;
}
