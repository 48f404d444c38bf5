// A sponsored claim through the C# client, as a console program (Mono, .NET): the player holds no SUI and the
// stage's sponsor pays the gas (docs/claims.md "Sponsored claims"). test/client-csharp.test.ts runs it two ways:
//
//   mono SponsoredClaim.exe kind     reads claims as JSON lines on stdin, {"target", "verifier", "version",
//                                    "message" (hex), "signature" (Base64), "coin_type"}, and prints each claim
//                                    call's transaction kind (Base64) on a line: compared with the Sui SDK's.
//   mono SponsoredClaim.exe          redeems a history entry's reward with SponsoredClaims.RedeemSponsored.
//
// Redeeming, its settings are in the environment (the token never on a command line): GP_BASE_URL (the main
// base), GP_PLATFORM_TOKEN (the player's platform token), GP_ENTRY_ID, GP_TARGET (the game's claim function),
// GP_VERIFIER_VERSION (its verifier's initial shared version) and GP_GRAPHQL_URL (the chain's GraphQL service).
// The player's wallet is outside the program (Mono has no Ed25519): to sign, the program prints
// {"step":"sign","transaction":"<Base64>"} and reads one line {"signature":"<Base64>"}, Sui's serialized
// signature. It ends with {"step":"redeemed","digest":"..."}, or with {"step":"failed",...} and exit code 1.
using System;
using System.Globalization;
using System.Threading.Tasks;
using GamePlatform.Client;
using GamePlatform.Main;

public static class SponsoredClaim
{
    public static int Main(string[] args)
    {
        try
        {
            if (args.Length > 0 && args[0] == "kind") Kinds();
            else Redeem().GetAwaiter().GetResult();
            return 0;
        }
        catch (ApiException e)
        {
            Print(Line("failed").Set("status", JsonValue.From((long)e.Status)).Set("error", JsonValue.From(e.ErrorCode)).Set("message", JsonValue.From(e.ServerMessage)));
            return 1;
        }
        catch (SponsoredClaimException e)
        {
            Print(Line("failed").Set("chain", JsonValue.True).Set("digest", JsonValue.From(e.Digest)).Set("message", JsonValue.From(e.Message)));
            return 1;
        }
        catch (Exception e)
        {
            Print(Line("failed").Set("message", JsonValue.From(e.ToString())));
            return 1;
        }
    }

    private static void Kinds()
    {
        string text;
        while ((text = Console.In.ReadLine()) != null)
        {
            var claim = Json.Parse(text);
            var kind = SponsoredClaims.ClaimKind(
                claim.Get("target").AsString(),
                claim.Get("verifier").AsString(),
                claim.Get("version").AsLong(),
                SuiAddress.Hex(claim.Get("message").AsString(), "message"),
                Convert.FromBase64String(claim.Get("signature").AsString()),
                claim.Get("coin_type").AsString());
            Console.WriteLine(Convert.ToBase64String(kind));
        }
    }

    private static async Task Redeem()
    {
        var player = new MainApi(new ApiClient(Setting("GP_BASE_URL"), new HttpClientTransport())).WithToken(Setting("GP_PLATFORM_TOKEN"));
        var digest = await SponsoredClaims.RedeemSponsored(
            player,
            long.Parse(Setting("GP_ENTRY_ID"), CultureInfo.InvariantCulture),
            Setting("GP_TARGET"),
            long.Parse(Setting("GP_VERIFIER_VERSION"), CultureInfo.InvariantCulture),
            SignWithWallet,
            Setting("GP_GRAPHQL_URL"));
        Print(Line("redeemed").Set("digest", JsonValue.From(digest)));
    }

    /// <summary>The game's wallet: here the test, over stdin and stdout; in a game, its wallet or zkLogin signer.</summary>
    private static Task<string> SignWithWallet(byte[] transaction)
    {
        Print(Line("sign").Set("transaction", JsonValue.From(Convert.ToBase64String(transaction))));
        var answer = Json.Parse(Console.In.ReadLine() ?? "null");
        return Task.FromResult(answer.Get("signature").AsString());
    }

    private static JsonValue Line(string step) { return JsonValue.NewObject().Set("step", JsonValue.From(step)); }

    private static void Print(JsonValue line) { Console.WriteLine(Json.Write(line)); }

    private static string Setting(string name)
    {
        var value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value)) throw new InvalidOperationException(name + " is not set");
        return value;
    }
}
