// Reads JSON texts, one per stdin line, and writes each back as Json.Write writes it, or {"invalid": message}
// when Json.Parse refuses it: test/client-csharp.test.ts compares the reader and writer with JavaScript's.
using System;
using GamePlatform.Client;

public static class JsonEcho
{
    public static int Main()
    {
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            try
            {
                Console.WriteLine(Json.Write(Json.Parse(line)));
            }
            catch (JsonException e)
            {
                Console.WriteLine(Json.Write(JsonValue.NewObject().Set("invalid", JsonValue.From(e.Message))));
            }
        }
        return 0;
    }
}
