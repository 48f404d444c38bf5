// Sponsored claims (docs/claims.md "Sponsored claims"): a player who holds no SUI redeems a reward with the stage
// paying the gas. The claim call is written here as Sui's BCS of a transaction kind, byte for byte what the Sui
// TypeScript SDK's `tx.build({ onlyTransactionKind: true })` makes for it; the platform's sponsor answers the whole
// transaction, the game's wallet signs it as the player, and the chain's GraphQL service executes it.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using GamePlatform.Main;

namespace GamePlatform.Client
{
    /// <summary>
    /// The little of Sui's BCS (Binary Canonical Serialization) a claim call needs: ULEB128 lengths, little-endian
    /// integers, 32-byte addresses, strings and byte vectors, and enums as their variant's index.
    /// </summary>
    public sealed class BcsWriter
    {
        private readonly MemoryStream bytes = new MemoryStream();

        public BcsWriter U8(byte value)
        {
            bytes.WriteByte(value);
            return this;
        }

        public BcsWriter Bool(bool value) { return U8(value ? (byte)1 : (byte)0); }

        public BcsWriter U16(ushort value)
        {
            bytes.WriteByte((byte)value);
            bytes.WriteByte((byte)(value >> 8));
            return this;
        }

        public BcsWriter U64(ulong value)
        {
            for (var i = 0; i < 8; i++) bytes.WriteByte((byte)(value >> (8 * i)));
            return this;
        }

        /// <summary>A length or an enum's variant index: 7 bits a byte, the high bit set on all but the last.</summary>
        public BcsWriter Uleb128(ulong value)
        {
            do
            {
                var low = (byte)(value & 0x7f);
                value >>= 7;
                bytes.WriteByte(value != 0 ? (byte)(low | 0x80) : low);
            } while (value != 0);
            return this;
        }

        /// <summary>An enum's variant, by its index in the type's declaration; its fields follow.</summary>
        public BcsWriter Variant(int index) { return Uleb128((ulong)index); }

        /// <summary>A vector's length; its elements follow.</summary>
        public BcsWriter Length(int count) { return Uleb128((ulong)count); }

        /// <summary>Bytes as they are, with no length (an address, a fixed array).</summary>
        public BcsWriter Raw(byte[] value)
        {
            bytes.Write(value, 0, value.Length);
            return this;
        }

        /// <summary>vector&lt;u8&gt;: its length, then its bytes.</summary>
        public BcsWriter Bytes(byte[] value) { return Length(value.Length).Raw(value); }

        /// <summary>A string: its UTF-8 bytes as a vector&lt;u8&gt;.</summary>
        public BcsWriter String(string value) { return Bytes(Encoding.UTF8.GetBytes(value)); }

        /// <summary>A Sui address (`0x` and up to 64 hex digits, or the digits alone): 32 bytes.</summary>
        public BcsWriter Address(string value) { return Raw(SuiAddress.Bytes(value)); }

        public byte[] ToArray() { return bytes.ToArray(); }
    }

    /// <summary>Sui addresses and Move type names as BCS writes them.</summary>
    public static class SuiAddress
    {
        /// <summary>The 32 bytes of an address; a short one (`0x2`) is padded with leading zeros.</summary>
        public static byte[] Bytes(string address)
        {
            if (address == null) throw new ArgumentNullException("address");
            var hex = address.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? address.Substring(2) : address;
            if (hex.Length == 0 || hex.Length > 64) throw new FormatException("not a Sui address: " + address);
            return Hex(hex.PadLeft(64, '0'), "Sui address " + address);
        }

        /// <summary>Bytes from hex digits (an even number of them).</summary>
        public static byte[] Hex(string hex, string what)
        {
            if (hex == null || hex.Length % 2 != 0) throw new FormatException(what + ": not hex");
            var bytes = new byte[hex.Length / 2];
            for (var i = 0; i < bytes.Length; i++)
            {
                int high = Digit(hex[2 * i]), low = Digit(hex[2 * i + 1]);
                if (high < 0 || low < 0) throw new FormatException(what + ": not hex");
                bytes[i] = (byte)(high * 16 + low);
            }
            return bytes;
        }

        private static int Digit(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        /// <summary>
        /// A Move type (`0x2::sui::SUI`, the coin of a claim as sign_code names it, `0000…0002::sui::SUI`, a generic
        /// one such as `0x…::pool::LP&lt;0x2::sui::SUI, u64&gt;`, `vector&lt;u8&gt;`) as a Sui TypeTag.
        /// </summary>
        public static void WriteTypeTag(BcsWriter writer, string type)
        {
            var at = 0;
            WriteType(writer, type, ref at);
            SkipSpace(type, ref at);
            if (at != type.Length) throw new FormatException("not a Move type: " + type);
        }

        // TypeTag's variants: bool, u8, u64, u128, address, signer, vector, struct, u16, u32, u256.
        private static readonly string[] Primitives = { "bool", "u8", "u64", "u128", "address", "signer", null, null, "u16", "u32", "u256" };

        private static void WriteType(BcsWriter writer, string text, ref int at)
        {
            SkipSpace(text, ref at);
            var start = at;
            while (at < text.Length && (char.IsLetterOrDigit(text[at]) || text[at] == '_' || text[at] == ':')) at++;
            var name = text.Substring(start, at - start);
            if (name == "vector")
            {
                Expect(text, ref at, '<');
                writer.Variant(6);
                WriteType(writer, text, ref at);
                Expect(text, ref at, '>');
                return;
            }
            var primitive = Array.IndexOf(Primitives, name);
            if (primitive >= 0)
            {
                writer.Variant(primitive);
                return;
            }
            var parts = name.Split(new[] { "::" }, StringSplitOptions.None);
            if (parts.Length != 3 || parts[1].Length == 0 || parts[2].Length == 0) throw new FormatException("not a Move type: " + text);
            writer.Variant(7).Address(parts[0]).String(parts[1]).String(parts[2]);
            var parameters = new List<BcsWriter>();
            SkipSpace(text, ref at);
            if (at < text.Length && text[at] == '<')
            {
                at++;
                for (;;)
                {
                    var parameter = new BcsWriter();
                    WriteType(parameter, text, ref at);
                    parameters.Add(parameter);
                    SkipSpace(text, ref at);
                    if (at < text.Length && text[at] == ',')
                    {
                        at++;
                        continue;
                    }
                    Expect(text, ref at, '>');
                    break;
                }
            }
            writer.Length(parameters.Count);
            foreach (var parameter in parameters) writer.Raw(parameter.ToArray());
        }

        private static void SkipSpace(string text, ref int at)
        {
            while (at < text.Length && text[at] == ' ') at++;
        }

        private static void Expect(string text, ref int at, char c)
        {
            SkipSpace(text, ref at);
            if (at >= text.Length || text[at] != c) throw new FormatException("not a Move type: " + text);
            at++;
        }
    }

    /// <summary>A sponsored claim's transaction that the chain refused or failed: the reason, and its digest when known.</summary>
    public sealed class SponsoredClaimException : Exception
    {
        /// <summary>The transaction's digest, as the platform's sponsor answered it.</summary>
        public readonly string Digest;

        public SponsoredClaimException(string message, string digest) : base(message) { Digest = digest; }
    }

    /// <summary>
    /// A reward redeemed with the stage paying the gas (docs/claims.md "Sponsored claims"): the player needs no SUI,
    /// only a wallet that signs the transaction as the player (the claim's recipient).
    /// </summary>
    public static class SponsoredClaims
    {
        /// <summary>The Clock object: 0x6, shared since genesis, at initial shared version 1 on every Sui network.</summary>
        private const string Clock = "0x6";

        /// <summary>
        /// The claim call `target&lt;coinType&gt;(verifier, message, signature, clock)` as the BCS of a Sui
        /// TransactionKind::ProgrammableTransaction: the verifier shared and mutable at its initial shared version,
        /// the message and signature as pure vector&lt;u8&gt; inputs, the Clock shared and immutable. No gas, no sender:
        /// the platform's sponsor sets those.
        /// </summary>
        public static byte[] ClaimKind(string target, string verifier, long verifierVersion, byte[] message, byte[] signature, string coinType)
        {
            if (target == null) throw new ArgumentNullException("target");
            var call = target.Split(new[] { "::" }, StringSplitOptions.None);
            if (call.Length != 3 || call[1].Length == 0 || call[2].Length == 0)
                throw new FormatException("target: not <package>::<module>::<function>: " + target);
            var w = new BcsWriter();
            w.Variant(0); // TransactionKind::ProgrammableTransaction
            w.Length(4); // inputs: CallArg
            w.Variant(1).Variant(1).Address(verifier).U64((ulong)verifierVersion).Bool(true); // Object(SharedObject), mutable
            w.Variant(0).Bytes(new BcsWriter().Bytes(message).ToArray()); // Pure: the BCS of vector<u8>
            w.Variant(0).Bytes(new BcsWriter().Bytes(signature).ToArray());
            w.Variant(1).Variant(1).Address(Clock).U64(1).Bool(false); // the Clock, immutable
            w.Length(1); // commands
            w.Variant(0).Address(call[0]).String(call[1]).String(call[2]); // Command::MoveCall
            w.Length(1);
            SuiAddress.WriteTypeTag(w, coinType);
            w.Length(4); // arguments: Argument::Input(i)
            for (ushort i = 0; i < 4; i++) w.Variant(1).U16(i);
            return w.ToArray();
        }

        /// <summary>
        /// Redeems history entry `id`'s reward in one call: has the platform sign its claim (sign_code), writes the
        /// claim call of the game's claim function `target` (`&lt;package&gt;::&lt;module&gt;::&lt;function&gt;`, the
        /// studio's sponsorship target) at the verifier's initial shared version, has the platform's sponsor make and
        /// sign the whole transaction, has `signTransaction` sign its bytes as the player, and executes it with both
        /// signatures at the chain's GraphQL service `graphqlUrl`. Answers the transaction's digest.
        ///
        /// `api` carries the player's platform token. `signTransaction` is the game's wallet: given the transaction's
        /// bytes (BCS TransactionData), it answers Sui's serialized signature of them as the player, Base64 (flag,
        /// signature, public key; or a zkLogin signature). A refusal of the platform is its ApiException (409
        /// sponsor.already_paid for a reward paid already); a transaction the chain refuses or that fails on chain
        /// is a SponsoredClaimException with the chain's reason.
        /// </summary>
        public static async Task<string> RedeemSponsored(
            MainApi api,
            long id,
            string target,
            long verifierVersion,
            Func<byte[], Task<string>> signTransaction,
            string graphqlUrl,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            if (api == null) throw new ArgumentNullException("api");
            if (signTransaction == null) throw new ArgumentNullException("signTransaction");
            if (graphqlUrl == null) throw new ArgumentNullException("graphqlUrl");
            var claim = (await api.SignCodeAsync(new SignCodeRequest { Id = id }, cancellationToken)).Data;
            if (string.IsNullOrEmpty(claim.Game) || string.IsNullOrEmpty(claim.CoinType))
                throw new InvalidOperationException("the claim names no verifier: sign_code renews such a claim, call it again");
            var kind = ClaimKind(target, claim.Game, verifierVersion, SuiAddress.Hex(claim.Message, "the claim's message"), Convert.FromBase64String(claim.Signature), claim.CoinType);
            var sponsored = (await api.ClaimSponsorAsync(new ClaimSponsorRequest { Id = id, TransactionKind = Convert.ToBase64String(kind) }, cancellationToken)).Data;
            var signature = await signTransaction(Convert.FromBase64String(sponsored.Transaction));
            return await ExecuteAsync(api.Client.Transport, graphqlUrl, sponsored.Transaction, new[] { signature, sponsored.SponsorSignature }, sponsored.Digest, cancellationToken);
        }

        private const string ExecuteMutation =
            "mutation ($tx: Base64!, $signatures: [Base64!]!) { executeTransaction(transactionDataBcs: $tx, signatures: $signatures) " +
            "{ effects { transaction { digest effects { status executionError { message } } } } } }";

        /// <summary>Executes signed transaction bytes at a Sui GraphQL service; answers the digest, or throws with the chain's reason.</summary>
        public static async Task<string> ExecuteAsync(ITransport transport, string graphqlUrl, string transaction, string[] signatures, string digest, CancellationToken cancellationToken)
        {
            var list = JsonValue.NewArray();
            foreach (var signature in signatures) list.Add(JsonValue.From(signature));
            var body = JsonValue.NewObject()
                .Set("query", JsonValue.From(ExecuteMutation))
                .Set("variables", JsonValue.NewObject().Set("tx", JsonValue.From(transaction)).Set("signatures", list));
            var request = new TransportRequest { Method = "POST", Url = graphqlUrl, Body = Encoding.UTF8.GetBytes(Json.Write(body)) };
            request.Headers["Content-Type"] = "application/json";
            request.Headers["Accept"] = "application/json";
            var response = await transport.SendAsync(request, cancellationToken);
            JsonValue answer;
            try
            {
                answer = Json.Parse(response.Body);
            }
            catch (JsonException)
            {
                throw new SponsoredClaimException("the chain's GraphQL service answered HTTP " + response.Status.ToString(CultureInfo.InvariantCulture) + ": " + Encoding.UTF8.GetString(response.Body), digest);
            }
            var errors = answer.Kind == JsonKind.Object ? answer.Get("errors") : null;
            if (errors != null && errors.Kind == JsonKind.Array && errors.Count > 0)
            {
                var reasons = new List<string>();
                foreach (var error in errors.Items)
                {
                    var message = error.Kind == JsonKind.Object ? error.Get("message") : null;
                    reasons.Add(message != null && message.Kind == JsonKind.String ? message.AsString() : Json.Write(error));
                }
                throw new SponsoredClaimException("the chain refused the sponsored claim: " + string.Join("; ", reasons.ToArray()), digest);
            }
            var executed = Member(answer, "data", "executeTransaction", "effects", "transaction");
            if (response.Status < 200 || response.Status >= 300 || executed == null)
                throw new SponsoredClaimException("the chain's GraphQL service answered HTTP " + response.Status.ToString(CultureInfo.InvariantCulture) + " without the transaction: " + Json.Write(answer), digest);
            var executedDigest = Member(executed, "digest");
            var status = Member(executed, "effects", "status");
            if (status == null || status.Kind != JsonKind.String || status.AsString() != "SUCCESS")
            {
                var reason = Member(executed, "effects", "executionError", "message");
                throw new SponsoredClaimException(
                    "the sponsored claim failed on chain: " + (reason != null && reason.Kind == JsonKind.String ? reason.AsString() : status == null ? "no status" : Json.Write(status)),
                    executedDigest != null && executedDigest.Kind == JsonKind.String ? executedDigest.AsString() : digest);
            }
            return executedDigest != null && executedDigest.Kind == JsonKind.String ? executedDigest.AsString() : digest;
        }

        /// <summary>The member at `path` through nested objects; null when one is missing, null or not an object.</summary>
        private static JsonValue Member(JsonValue value, params string[] path)
        {
            foreach (var name in path)
            {
                if (value == null || value.Kind != JsonKind.Object) return null;
                value = value.Get(name);
            }
            return value == null || value.IsNull ? null : value;
        }
    }
}
