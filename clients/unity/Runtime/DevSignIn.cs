// A local player's sign-in against `npm start`: an id_token from the development sign-in provider the local
// server serves on its own origin, for zkLogin (LoginZkAsync) without any real OpenID provider.
using System;
using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;

namespace GamePlatform.Client
{
    /// <summary>
    /// Gets an id_token from the development sign-in provider of the local server (`npm start`, at
    /// `&lt;origin&gt;/dev-sign-in`): it signs one for any player name (the same name is the same player), and the
    /// local stage trusts it for zkLogin. Only for the local stage: a deployed stage refuses a provider on a
    /// loopback host, so a game signs its players in there with a real provider (Google, …) and passes that
    /// id_token to LoginZkAsync instead.
    ///
    /// IdTokenAsync sends the authorize request with the player's name (`login_hint`) through the transport and
    /// reads the id_token from the redirect's Location header, without following it: the transport must answer
    /// a redirect as it came, as HttpClientTransport's default constructor and UnityWebRequestTransport do
    /// (not on WebGL, where the browser follows or fails every redirect: there, send the player's page to
    /// AuthorizeUrl with the game's page as redirectUri, and read the id_token back with IdTokenFromRedirect).
    /// </summary>
    public sealed class DevSignIn
    {
        /// <summary>The provider's path on the local server's origin.</summary>
        public const string Path = "/dev-sign-in";
        /// <summary>The one client id the provider signs for (the id_token's `aud`).</summary>
        public const string ClientId = "local-game";
        /// <summary>
        /// The redirect_uri IdTokenAsync sends: nothing loads it (the id_token is read from the Location header),
        /// and no transport can, so the token goes nowhere else even through one that follows redirects.
        /// </summary>
        public const string OutOfBand = "urn:ietf:wg:oauth:2.0:oob";

        private readonly ITransport transport;

        public DevSignIn(ITransport transport)
        {
            if (transport == null) throw new ArgumentNullException("transport");
            this.transport = transport;
        }

        /// <summary>
        /// The id_token of `playerName` from the provider at `origin` (the local server's, e.g.
        /// http://127.0.0.1:3000). Throws DevSignInException, its message saying why, when no id_token comes back:
        /// the provider refused (its reason included), no provider answered there, or the transport failed.
        /// </summary>
        public Task<string> IdTokenAsync(string origin, string playerName, CancellationToken cancellationToken = default(CancellationToken))
        {
            return IdTokenAsync(origin, playerName, null, cancellationToken);
        }

        /// <summary>The same, with the `nonce` the id_token must carry (a zkLogin nonce; null for none).</summary>
        public async Task<string> IdTokenAsync(string origin, string playerName, string nonce, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (origin == null) throw new ArgumentNullException("origin");
            var issuer = origin.TrimEnd('/') + Path;
            // An empty name is no sign-in: the provider would answer its page asking for one.
            if (string.IsNullOrWhiteSpace(playerName))
                throw new DevSignInException("development sign-in at " + issuer + ": a player name is needed", 0);
            var request = new TransportRequest { Method = "GET", Url = AuthorizeUrl(origin, playerName, OutOfBand, nonce) };
            var refusal = "development sign-in of \"" + playerName + "\" at " + issuer + " ";
            TransportResponse response;
            try
            {
                response = await transport.SendAsync(request, cancellationToken);
            }
            catch (OperationCanceledException)
            {
                throw;
            }
            catch (Exception e)
            {
                // No answer: most often no server at that origin; a transport that follows redirects fails here too,
                // as no transport can load OutOfBand.
                throw new DevSignInException(
                    refusal + "got no answer: " + e.GetBaseException().Message + " (is npm start running there, and does the transport leave redirects unfollowed?)", 0, e);
            }
            if (response.Status >= 300 && response.Status < 400)
            {
                string location;
                if (!response.Headers.TryGetValue("Location", out location) || string.IsNullOrEmpty(location))
                    throw new DevSignInException(refusal + "answered HTTP " + response.Status + " without a Location", response.Status);
                var idToken = IdTokenFromRedirect(location);
                if (idToken != null) return idToken;
                var error = Parameter(location, "error");
                throw new DevSignInException(
                    refusal + "redirected without an id_token" + (error != null ? ": " + error + " " + (Parameter(location, "error_description") ?? "") : ""),
                    response.Status);
            }
            if (response.Status == 404)
                throw new DevSignInException(refusal + "failed: no provider there (HTTP 404; is it npm start's origin, with DEV_SIGN_IN on?)", 404);
            if (response.Status >= 200 && response.Status < 300)
                throw new DevSignInException(
                    refusal + "answered HTTP " + response.Status + " instead of its redirect: the transport followed it (an HttpClient given to HttpClientTransport needs AllowAutoRedirect = false)",
                    response.Status);
            throw new DevSignInException(refusal + "refused (HTTP " + response.Status + "): " + ReadableText(response), response.Status);
        }

        /// <summary>
        /// The provider's authorize URL for `playerName` (null or empty: the provider's page asks the player for a
        /// name), answering to `redirectUri` with `#id_token=…` (for a browser, the game's own page).
        /// </summary>
        public static string AuthorizeUrl(string origin, string playerName, string redirectUri, string nonce)
        {
            if (origin == null) throw new ArgumentNullException("origin");
            if (redirectUri == null) throw new ArgumentNullException("redirectUri");
            var url = new StringBuilder(origin.TrimEnd('/')).Append(Path).Append("/authorize?client_id=").Append(ClientId)
                .Append("&response_type=id_token&redirect_uri=").Append(Uri.EscapeDataString(redirectUri));
            if (!string.IsNullOrEmpty(playerName)) url.Append("&login_hint=").Append(Uri.EscapeDataString(playerName));
            if (nonce != null) url.Append("&nonce=").Append(Uri.EscapeDataString(nonce));
            return url.ToString();
        }

        /// <summary>The id_token a redirect carries, in its fragment or its query (`response_mode=query`); null when none.</summary>
        public static string IdTokenFromRedirect(string location)
        {
            return Parameter(location, "id_token");
        }

        /// <summary>A parameter of a URL's fragment, else of its query; null when absent or empty.</summary>
        private static string Parameter(string url, string name)
        {
            if (url == null) return null;
            var hash = url.IndexOf('#');
            var query = url.IndexOf('?');
            string value = null;
            if (hash >= 0) value = FormParameter(url.Substring(hash + 1), name);
            if (value == null && query >= 0 && (hash < 0 || query < hash))
                value = FormParameter(url.Substring(query + 1, (hash >= 0 ? hash : url.Length) - query - 1), name);
            return value;
        }

        private static string FormParameter(string form, string name)
        {
            foreach (var pair in form.Split('&'))
            {
                var equals = pair.IndexOf('=');
                var key = Decode(equals >= 0 ? pair.Substring(0, equals) : pair);
                if (key != name) continue;
                var value = equals >= 0 ? Decode(pair.Substring(equals + 1)) : "";
                return value.Length > 0 ? value : null;
            }
            return null;
        }

        private static string Decode(string text) { return Uri.UnescapeDataString(text.Replace('+', ' ')); }

        /// <summary>A refusal's text in a line: a page's alert (its name page says there what is wrong), or its whole text.</summary>
        private static string ReadableText(TransportResponse response)
        {
            var text = Encoding.UTF8.GetString(response.Body ?? new byte[0]);
            string type;
            if (response.Headers.TryGetValue("Content-Type", out type) && type.IndexOf("html", StringComparison.OrdinalIgnoreCase) >= 0)
            {
                var alert = Regex.Match(text, "role=\"alert\"[^>]*>(.*?)</", RegexOptions.Singleline);
                text = alert.Success ? alert.Groups[1].Value : Regex.Replace(text, "<(style|script)[^>]*>.*?</\\1>", " ", RegexOptions.Singleline | RegexOptions.IgnoreCase);
                text = WebUtility.HtmlDecode(Regex.Replace(text, "<[^>]*>", " "));
            }
            text = Regex.Replace(text, "\\s+", " ").Trim();
            return text.Length > 300 ? text.Substring(0, 300) + "..." : (text.Length > 0 ? text : "(no text)");
        }
    }

    /// <summary>A development sign-in that gave no id_token: the message says why.</summary>
    public sealed class DevSignInException : Exception
    {
        /// <summary>The provider's HTTP status; 0 when no answer came (or nothing was sent).</summary>
        public readonly int Status;

        public DevSignInException(string message, int status) : base(message) { Status = status; }

        public DevSignInException(string message, int status, Exception inner) : base(message, inner) { Status = status; }
    }
}
