// A player's flow through the generated client, as a console program (Mono, .NET): sign in with zkLogin, read
// the game and the tickets, order tickets, complete the order once the wallet has paid, let the game server
// spend a ticket with an Idempotency-Key sent twice, report a win and read the board. Each step prints one JSON
// line (test/client-csharp.test.ts reads them); tokens are never printed. A failure is one last line,
// {"step":"failed",...}, and the exit code 1.
//
// Settings from the environment: GP_BASE_URL (the main base, e.g. http://localhost:3000/v2-testing); the
// player's sign-in, either GP_DEV_SIGN_IN (the local server's origin, e.g. http://127.0.0.1:3000: an id_token
// from its development sign-in provider, for GP_PLAYER_NAME) or else GP_ID_TOKEN (an id_token from the game's
// own OpenID provider); GP_SERVER_TOKEN (the merchant's server token), GP_PROJECT, GP_LEVEL, GP_PRICE_ID,
// GP_AMOUNT (the level's price in base units), GP_GAME_CODE, and GP_MATCH_KEY (the deduction's
// Idempotency-Key). After the order line the program reads one JSON line from stdin, {"transactionId": "..."}:
// the payment's transaction digest, once the wallet has paid.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;
using GamePlatform.Client;
using GamePlatform.Main;

public static class PlayerFlow
{
    public static int Main()
    {
        try
        {
            Run().GetAwaiter().GetResult();
            return 0;
        }
        catch (ApiException e)
        {
            Print(Line("failed").Set("status", JsonValue.From((long)e.Status)).Set("error", JsonValue.From(e.ErrorCode)).Set("message", JsonValue.From(e.ServerMessage)));
            return 1;
        }
        catch (DevSignInException e)
        {
            // A refused sign-in is the player's to fix (another name, the server's origin): its reason, no trace.
            Print(Line("failed").Set("status", JsonValue.From((long)e.Status)).Set("message", JsonValue.From(e.Message)));
            return 1;
        }
        catch (Exception e)
        {
            Print(Line("failed").Set("message", JsonValue.From(e.ToString())));
            return 1;
        }
    }

    private static async Task Run()
    {
        var transport = new HttpClientTransport();
        var open = new MainApi(new ApiClient(Setting("GP_BASE_URL"), transport));
        var server = open.WithToken(Setting("GP_SERVER_TOKEN"));
        var project = Setting("GP_PROJECT");
        var level = long.Parse(Setting("GP_LEVEL"), CultureInfo.InvariantCulture);
        var gameCode = Setting("GP_GAME_CODE");

        // zkLogin: the OpenID provider's id_token is the whole sign-in; the answer holds the player's token pair.
        // Against npm start the local provider gives it for a name; elsewhere it comes from the game's provider.
        var devSignIn = Environment.GetEnvironmentVariable("GP_DEV_SIGN_IN");
        var idToken = string.IsNullOrEmpty(devSignIn)
            ? Setting("GP_ID_TOKEN")
            : await new DevSignIn(transport).IdTokenAsync(devSignIn, Setting("GP_PLAYER_NAME"));
        var session = await open.LoginZkAsync(new LoginZkRequest { IdToken = idToken });
        var player = open.WithToken(session.PlatformToken.AccessToken);
        Print(Line("signed_in").Set("uid", JsonValue.From(session.Uid)).Set("address", JsonValue.From(session.Address)));

        var game = await open.GameDetailAsync(gameCode);
        Print(Line("game").Set("code", JsonValue.From(game.Data.Code)).Set("gameName", JsonValue.From(game.Data.GameName)));

        await PrintBalance(player, project, level);

        var order = await player.RechargeOrderAsync(new RechargeOrderRequest
        {
            UserId = session.Uid,
            Project = project,
            PriceId = long.Parse(Setting("GP_PRICE_ID"), CultureInfo.InvariantCulture),
            PrevId = -1,
            Level = level,
            Amount = decimal.Parse(Setting("GP_AMOUNT"), CultureInfo.InvariantCulture),
        });
        Print(Line("order").Set("id", JsonValue.From(order.Id)).Set("bill_no", JsonValue.From(order.BillNo)).Set("amount_base", JsonValue.From(order.AmountBase))
            .Set("status", JsonValue.From(order.Status)).Set("tickets", JsonValue.From(order.Tickets)));

        // The wallet pays outside this program; it answers with the transaction's digest.
        var paid = Json.Parse(Console.In.ReadLine() ?? "null");
        var completed = await player.UserOrderCompleteAsync(new UserOrderCompleteRequest { OrderId = order.Id, TransactionId = paid.Get("transactionId").AsString() });
        Print(Line("order_completed").Set("uid", JsonValue.From(completed.Uid)).Set("status", JsonValue.From(completed.Status)));

        await PrintBalance(player, project, level);

        // The game server spends one ticket for a match. The same key sent again (a retry after a lost answer)
        // answers the first answer and takes nothing more.
        var spend = new MinusTicketsRequest { UserId = session.Uid, ProjectName = project, Level = level, Amount = 1 };
        var key = Setting("GP_MATCH_KEY");
        for (var attempt = 1; attempt <= 2; attempt++)
        {
            var spent = await server.MinusTicketsAsync(spend, key);
            Print(Line("spent").Set("attempt", JsonValue.From((long)attempt)).Set("statusCode", JsonValue.From(spent.StatusCode)).Set("reference", JsonValue.From(spent.Data)));
        }
        await PrintBalance(player, project, level);

        // More than the balance: a refusal, matched on its error code.
        try
        {
            await server.MinusTicketsAsync(new MinusTicketsRequest { UserId = session.Uid, ProjectName = project, Level = level, Amount = 1000000 });
            Print(Line("refused").Set("status", JsonValue.From(200L)));
        }
        catch (ApiException e)
        {
            Print(Line("refused").Set("status", JsonValue.From((long)e.Status)).Set("error", JsonValue.From(e.ErrorCode))
                .Set("balance_short", JsonValue.From(e.ErrorCode == ErrorCodes.TicketsBalanceShort)));
        }

        await server.AddWinAsync(new AddWinRequest { GameCode = gameCode, GamePlayerId = session.Uid, GamePlayerName = "Unity player", Kills = 3, Wins = 1 });
        // The boards follow the reports through the table's stream, a second or so behind: ask again until the player
        // is on all four, as a game shows its boards a moment after the match.
        var board = (await open.GameRankAsync(gameCode)).Data;
        for (var attempt = 1; attempt < 80; attempt++)
        {
            var uid = session.Uid;
            var onAll = board.GameWeekKillRank.Exists(r => r.GamePlayerId == uid) && board.GameWeekWinRank.Exists(r => r.GamePlayerId == uid)
                && board.GameMothKillRank.Exists(r => r.GamePlayerId == uid) && board.GameMothWinRank.Exists(r => r.GamePlayerId == uid);
            if (onAll) break;
            await Task.Delay(250);
            board = (await open.GameRankAsync(gameCode)).Data;
        }
        PrintBoard("gameWeekKillRank", board.GameWeekKillRank.ConvertAll(r => Entry(r.GamePlayerId, r.Total, r.GamePlayerName)), session.Uid);
        PrintBoard("gameWeekWinRank", board.GameWeekWinRank.ConvertAll(r => Entry(r.GamePlayerId, r.Total, r.GamePlayerName)), session.Uid);
        PrintBoard("gameMothKillRank", board.GameMothKillRank.ConvertAll(r => Entry(r.GamePlayerId, r.Total, r.GamePlayerName)), session.Uid);
        PrintBoard("gameMothWinRank", board.GameMothWinRank.ConvertAll(r => Entry(r.GamePlayerId, r.Total, r.GamePlayerName)), session.Uid);
        Print(Line("done"));
    }

    private static async Task PrintBalance(MainApi player, string project, long level)
    {
        var tickets = await player.GameTicketsAsync(project, level);
        Print(Line("balance").Set("balance", JsonValue.From(tickets.Data.Balance)));
    }

    private static JsonValue Entry(string player, string total, string name)
    {
        return JsonValue.NewObject().Set("game_player_id", JsonValue.From(player)).Set("total", JsonValue.From(total)).Set("game_player_name", JsonValue.From(name));
    }

    /// <summary>The player's row of a board (null when absent) and how many rows it has.</summary>
    private static void PrintBoard(string name, List<JsonValue> rows, string uid)
    {
        var mine = rows.Find(r => r.Get("game_player_id").AsString() == uid);
        Print(Line("board").Set("board", JsonValue.From(name)).Set("rows", JsonValue.From((long)rows.Count)).Set("player", mine ?? JsonValue.Null));
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
