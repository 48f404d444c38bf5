// Calls minus_tickets once per scenario against a scripted server (test/client-csharp.test.ts), with the
// client's default retry rules, and prints one JSON line per call: answered, or refused with the status and
// error code that reached the caller. The server counts the attempts and the Idempotency-Keys they carried.
//
// Usage: mono RetryCheck.exe <base URL> <scenario>... ; a scenario named keyed-... is sent with the key "given-key".
using System;
using GamePlatform.Client;
using GamePlatform.Main;

public static class RetryCheck
{
    public static int Main(string[] args)
    {
        var api = new MainApi(new ApiClient(args[0], new HttpClientTransport()) { Token = "scripted" });
        for (var i = 1; i < args.Length; i++)
        {
            var scenario = args[i];
            var line = JsonValue.NewObject().Set("scenario", JsonValue.From(scenario));
            try
            {
                var body = new MinusTicketsRequest { UserId = Guid.Empty.ToString(), ProjectName = scenario, Level = 1, Amount = 1 };
                var answer = api.MinusTicketsAsync(body, scenario.StartsWith("keyed-") ? "given-key" : null).GetAwaiter().GetResult();
                line.Set("answered", JsonValue.From(answer.Data));
            }
            catch (ApiException e)
            {
                line.Set("status", JsonValue.From((long)e.Status)).Set("error", JsonValue.From(e.ErrorCode)).Set("message", JsonValue.From(e.ServerMessage));
            }
            Console.WriteLine(Json.Write(line));
        }
        return 0;
    }
}
