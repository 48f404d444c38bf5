import { bcs } from '@mysten/sui/bcs';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { GraphQLError } from 'graphql';
import { type ChainState, fullCoinType, randomAddress, SUI, type ScriptEvent, type ScriptObject } from './chain-script.js';

/**
 * Executes signed transactions on the development chain as a validator would for the few Move functions it
 * knows: the signatures are checked with the SDK's verifier against the sender and the gas owner, the gas
 * coins must be the gas owner's at the versions named, and the programmable transaction is run command by
 * command (SplitCoins, TransferObjects, and MoveCalls of the functions registered). A Move abort fails the
 * transaction as on chain: status FAILURE with the abort, gas charged, nothing else written. A transaction that
 * could never run (a bad signature, an unknown function, a stale or foreign object, too little gas) is refused
 * before execution with a GraphQL error, as the real service refuses it.
 */

/** The gas a transaction here costs, in units: a small transaction's computation and storage on testnet. */
export const GAS_UNITS = 2_000n;

export interface ExecutedTransaction {
  digest: string;
  sender: string;
  signatures: string[];
  timestampMs: number;
  /** Set when a Move call aborted (the transaction then moved only its gas). */
  error?: { message: string; abortCode?: number; package?: string; module?: string; function?: string };
}

/** A value in a transaction: an input's bytes or object, or a coin a command made. */
export type Value =
  | { kind: 'pure'; bytes: Uint8Array }
  | { kind: 'object'; objectId: string }
  | { kind: 'coin'; coinType: string; balance: bigint; spent: boolean };

/** What a Move function sees and may do: its arguments, the sender and the Clock, and effects it stages. */
export interface MoveCall {
  state: ChainState;
  sender: string;
  nowMs: number;
  typeArguments: string[];
  args: Value[];
  /** An event of the call's package. */
  emit(event: Omit<ScriptEvent, 'txDigest' | 'eventSeq' | 'sender' | 'timestampMs'>): void;
  /** A new coin of `amount` owned by `owner` (a transfer, or a payment out of a pool). */
  give(owner: string, coinType: string, amount: bigint): void;
  /** Writes an object the call changed (shared objects passed by reference). */
  write(object: ScriptObject): void;
  /** Ends the call with a Move abort of the function's module. */
  abort(code: number, name: string): never;
}

export type MoveFunction = (call: MoveCall) => void | Promise<void>;

/** A Move abort inside a call. */
class MoveAbort extends Error {
  constructor(
    readonly code: number,
    name: string,
  ) {
    super(name);
  }
}

const refused = (message: string): never => {
  throw new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
};

const COIN_TYPE = (coinType: string) => fullCoinType(`0x2::coin::Coin<${coinType}>`);

/** A Coin object of `coinType`, as the chain stores one. */
export function coinObject(objectId: string, owner: string, coinType: string, balance: bigint): Omit<ScriptObject, 'version'> {
  return {
    objectId,
    type: COIN_TYPE(coinType),
    owner: { kind: 'ADDRESS', address: owner },
    fields: { id: objectId, balance: balance.toString() },
    layout: {
      struct: {
        type: COIN_TYPE(coinType),
        fields: [
          { name: 'id', layout: 'address' },
          { name: 'balance', layout: 'u64' },
        ],
      },
    },
  };
}

const balanceOf = (object: ScriptObject) => BigInt(object.fields.balance as string);

/** Runs one signed transaction (Base64 BCS of TransactionData, Base64 serialized signatures) against `state`. */
export async function executeTransaction(
  state: ChainState,
  functions: ReadonlyMap<string, MoveFunction>,
  transactionDataBcs: string,
  signatures: string[],
  nowMs: number,
): Promise<ExecutedTransaction> {
  const bytes = fromBase64(transactionDataBcs);
  const data = bcs.TransactionData.parse(bytes).V1;
  const digest = TransactionDataBuilder.getDigestFromBytes(bytes);
  const sender = normalizeSuiAddress(data.sender);
  const gasOwner = normalizeSuiAddress(data.gasData.owner);
  await checkSignatures(bytes, signatures, new Set([sender, gasOwner]));
  const program = data.kind.ProgrammableTransaction ?? refused('Only programmable transactions run on the development chain');

  // Gas: the payment coins are the gas owner's, at the versions named, and hold the budget.
  const price = BigInt(data.gasData.price);
  const budget = BigInt(data.gasData.budget);
  if (price < 1000n) refused(`Gas price ${price} under reference gas price (RGP) 1000`);
  const gasCoins = data.gasData.payment.map((ref) => ownedObject(state, ref, gasOwner));
  if (gasCoins.length === 0) refused('Gas payment is empty: a coin of the gas owner must pay');
  const gasBalance = gasCoins.reduce((sum, coin) => sum + balanceOf(coin), 0n);
  if (gasBalance < budget) refused(`Balance of gas object ${gasCoins[0]!.objectId} is lower than the needed amount: ${budget}`);
  const gasUsed = price * GAS_UNITS;
  if (budget < gasUsed) refused(`Gas budget ${budget} is lower than the ${gasUsed} this transaction needs`);

  const inputs: Value[] = program.inputs.map((input) => {
    if (input.Pure) return { kind: 'pure', bytes: fromBase64(input.Pure.bytes) };
    const object = input.Object;
    if (object?.ImmOrOwnedObject) return { kind: 'object', objectId: ownedObject(state, object.ImmOrOwnedObject, sender).objectId };
    if (object?.SharedObject) {
      const shared = state.objects.get(normalizeSuiAddress(object.SharedObject.objectId));
      if (shared?.owner.kind !== 'SHARED') refused(`Object ${object.SharedObject.objectId} is not a live shared object`);
      return { kind: 'object', objectId: shared!.objectId };
    }
    return refused('Only pure values, owned and shared objects are inputs on the development chain');
  });

  // The gas coins are smashed into the first; splits of the gas coin come out of it.
  let gas = gasBalance - gasUsed;
  const results: Value[][] = [];
  const events: ScriptEvent[] = [];
  const given: { owner: string; coinType: string; amount: bigint }[] = [];
  const writes: ScriptObject[] = [];
  const timestampMs = String(nowMs);
  const argument = (arg: Argument): Value | 'gas' => {
    if (arg.GasCoin) return 'gas';
    if (arg.Input != null) return inputs[arg.Input] ?? refused(`Input ${arg.Input} does not exist`);
    if (arg.Result != null) return results[arg.Result]?.[0] ?? refused(`Result ${arg.Result} does not exist`);
    const [command, index] = arg.NestedResult!;
    return results[command]?.[index] ?? refused(`Result ${command}.${index} does not exist`);
  };
  const coinValue = (arg: Argument): Value => {
    const value = argument(arg);
    if (value === 'gas') refused('The gas coin is used only by SplitCoins on the development chain');
    return value as Value;
  };

  let error: ExecutedTransaction['error'];
  for (const [index, command] of program.commands.entries()) {
    if (command.SplitCoins) {
      const source = argument(command.SplitCoins.coin);
      const amounts = command.SplitCoins.amounts.map((amount) => {
        const value = coinValue(amount);
        if (value.kind !== 'pure') return refused('SplitCoins takes u64 amounts');
        return BigInt(bcs.u64().parse(value.bytes));
      });
      const total = amounts.reduce((sum, amount) => sum + amount, 0n);
      if (source !== 'gas') refused('SplitCoins splits only the gas coin on the development chain');
      if (total > gas) {
        error = { message: `InsufficientCoinBalance in command ${index}` };
        break;
      }
      gas -= total;
      results.push(amounts.map((balance) => ({ kind: 'coin', coinType: SUI, balance, spent: false })));
    } else if (command.TransferObjects) {
      const to = coinValue(command.TransferObjects.address);
      if (to.kind !== 'pure') refused('TransferObjects takes an address');
      const recipient = bcs.Address.parse((to as { bytes: Uint8Array }).bytes);
      for (const object of command.TransferObjects.objects) {
        const coin = coinValue(object);
        if (coin.kind !== 'coin' || coin.spent) refused('TransferObjects moves only coins made in this transaction on the development chain');
        (coin as { spent: boolean }).spent = true;
        given.push({ owner: normalizeSuiAddress(recipient), coinType: (coin as { coinType: string }).coinType, amount: (coin as { balance: bigint }).balance });
      }
      results.push([]);
    } else if (command.MoveCall) {
      const call = command.MoveCall;
      const name = `${normalizeSuiAddress(call.package)}::${call.module}::${call.function}`;
      const run = functions.get(name) ?? refused(`Function ${call.module}::${call.function} of package ${call.package} is not on the development chain`);
      try {
        await run({
          state,
          sender,
          nowMs,
          typeArguments: call.typeArguments.map(fullCoinType),
          args: call.arguments.map(coinValue),
          emit: (event) => events.push({ ...event, txDigest: digest, eventSeq: events.length, sender, timestampMs }),
          give: (owner, coinType, amount) => given.push({ owner, coinType, amount }),
          write: (object) => writes.push(object),
          abort: (code, abortName) => {
            throw new MoveAbort(code, abortName);
          },
        });
      } catch (thrown) {
        if (!(thrown instanceof MoveAbort)) throw thrown;
        error = {
          message: `MoveAbort in ${index + 1}${ordinal(index + 1)} command, abort code: ${thrown.code} (${thrown.message}), in '${call.package}::${call.module}::${call.function}'`,
          abortCode: thrown.code,
          package: normalizeSuiAddress(call.package),
          module: call.module,
          function: call.function,
        };
        break;
      }
      results.push([]);
    } else {
      refused(`Command ${command.$kind} is not run on the development chain`);
    }
  }
  if (!error && results.flat().some((value) => value.kind === 'coin' && !value.spent)) {
    refused('UnusedValueWithoutDrop: a coin made in the transaction was neither transferred nor used');
  }

  // Effects: on failure only the gas is charged.
  const gasLeft = error ? gasBalance - gasUsed : gas;
  const [gasCoin, ...smashed] = gasCoins;
  for (const coin of smashed) state.removeObject(coin.objectId, 'deleted');
  // A write is a new version with a new digest.
  state.putObject({ ...gasCoin!, version: undefined, fields: { ...gasCoin!.fields, balance: gasLeft.toString() } });
  const changes = new Map<string, bigint>();
  const change = (owner: string, coinType: string, amount: bigint) => changes.set(`${owner}|${coinType}`, (changes.get(`${owner}|${coinType}`) ?? 0n) + amount);
  change(gasOwner, SUI, gasLeft - gasBalance);
  if (!error) {
    state.add(...events);
    for (const object of writes) state.putObject({ ...object, version: undefined });
    for (const coin of given) {
      state.putObject(coinObject(randomAddress(), coin.owner, coin.coinType, coin.amount));
      change(coin.owner, coin.coinType, coin.amount);
    }
  }
  const balanceChanges = [...changes].filter(([, amount]) => amount !== 0n);
  state.changes(digest, ...balanceChanges.map(([key, amount]) => ({ owner: key.split('|')[0]!, coinType: key.split('|')[1]!, amount: amount.toString() })));
  return { digest, sender, signatures, timestampMs: nowMs, ...(error ? { error } : {}) };
}

type Argument = { GasCoin?: true | null; Input?: number | null; Result?: number | null; NestedResult?: [number, number] | null };

const ordinal = (n: number) => (n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th');

/** An owned object named at its current version and digest, owned by `owner`. */
function ownedObject(state: ChainState, ref: { objectId: string; version: string | number; digest: string }, owner: string): ScriptObject {
  const object = state.objects.get(normalizeSuiAddress(ref.objectId));
  if (!object) return refused(`Object ${ref.objectId} does not exist or is no longer live`);
  if (String(object.version) !== String(ref.version) || object.digest !== ref.digest) {
    return refused(`Object ${ref.objectId} is not available for consumption, its current version: ${object.version}`);
  }
  if (object.owner.kind !== 'ADDRESS' || object.owner.address !== owner) return refused(`Object ${ref.objectId} is not owned by ${owner}`);
  return object;
}

/** Every required signer signed, with a signature the SDK's verifier accepts over these bytes; no other signature. */
async function checkSignatures(bytes: Uint8Array, signatures: string[], signers: Set<string>) {
  const signed = new Set<string>();
  for (const signature of signatures) {
    try {
      signed.add(normalizeSuiAddress((await verifyTransactionSignature(bytes, signature)).toSuiAddress()));
    } catch {
      refused('Invalid user signature: the signature does not verify over the transaction');
    }
  }
  for (const signer of signers) if (!signed.has(signer)) refused(`Required Signature from ${signer} is absent`);
  if (signed.size !== signers.size) refused('A signature of an address that is neither the sender nor the gas owner was given');
}
