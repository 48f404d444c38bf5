// What every generated operation goes through: the URL, the bearer token, the body's encoding, the retries,
// and the error value a refusal becomes.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace GamePlatform.Client
{
    /// <summary>One request as a generated operation describes it.</summary>
    public sealed class ApiRequest
    {
        public readonly string Method;
        /// <summary>The path relative to the base (already holding its path parameters).</summary>
        public readonly string Path;
        /// <summary>A path the document serves from the host's root rather than the base (RFC 8414 metadata).</summary>
        public bool FromRoot;
        public bool Authenticated;
        /// <summary>Sent as the Idempotency-Key header; kept the same across the retries of this call.</summary>
        public string IdempotencyKey;
        public JsonValue JsonBody;
        /// <summary>An object of strings and numbers, sent as application/x-www-form-urlencoded.</summary>
        public JsonValue FormBody;
        public MultipartBody Multipart;
        internal readonly List<KeyValuePair<string, string>> QueryParameters = new List<KeyValuePair<string, string>>();

        public ApiRequest(string method, string path)
        {
            Method = method;
            Path = path;
        }

        /// <summary>Adds a query parameter; a null value is left out.</summary>
        public ApiRequest Query(string name, string value)
        {
            if (value != null) QueryParameters.Add(new KeyValuePair<string, string>(name, value));
            return this;
        }

        public ApiRequest Query(string name, long? value)
        {
            return Query(name, value.HasValue ? value.Value.ToString(CultureInfo.InvariantCulture) : null);
        }

        public ApiRequest Query(string name, bool? value)
        {
            return Query(name, value.HasValue ? (value.Value ? "true" : "false") : null);
        }

        /// <summary>A path parameter's text, escaped for its segment.</summary>
        public static string Segment(string value) { return Uri.EscapeDataString(value ?? ""); }

        public static string Segment(long value) { return value.ToString(CultureInfo.InvariantCulture); }
    }

    /// <summary>A multipart/form-data body: text fields and files.</summary>
    public sealed class MultipartBody
    {
        private readonly string boundary = "----gp" + Guid.NewGuid().ToString("N");
        private readonly List<byte[]> parts = new List<byte[]>();

        public string ContentType { get { return "multipart/form-data; boundary=" + boundary; } }

        public MultipartBody Field(string name, string value)
        {
            if (value != null) parts.Add(Part("Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n", Encoding.UTF8.GetBytes(value)));
            return this;
        }

        public MultipartBody File(string name, byte[] content, string fileName, string contentType)
        {
            if (content != null)
                parts.Add(Part("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + (fileName ?? name).Replace("\"", "") + "\"\r\nContent-Type: " + (contentType ?? "application/octet-stream") + "\r\n\r\n", content));
            return this;
        }

        private byte[] Part(string head, byte[] content)
        {
            var start = Encoding.UTF8.GetBytes("--" + boundary + "\r\n" + head);
            var part = new byte[start.Length + content.Length + 2];
            Buffer.BlockCopy(start, 0, part, 0, start.Length);
            Buffer.BlockCopy(content, 0, part, start.Length, content.Length);
            part[part.Length - 2] = (byte)'\r';
            part[part.Length - 1] = (byte)'\n';
            return part;
        }

        public byte[] ToBytes()
        {
            var end = Encoding.UTF8.GetBytes("--" + boundary + "--\r\n");
            var length = end.Length;
            foreach (var part in parts) length += part.Length;
            var body = new byte[length];
            var at = 0;
            foreach (var part in parts)
            {
                Buffer.BlockCopy(part, 0, body, at, part.Length);
                at += part.Length;
            }
            Buffer.BlockCopy(end, 0, body, at, end.Length);
            return body;
        }
    }

    /// <summary>A 2xx answer.</summary>
    public sealed class ApiResponse
    {
        public readonly int Status;
        public readonly Dictionary<string, string> Headers;
        public readonly byte[] Body;

        public ApiResponse(TransportResponse response)
        {
            Status = response.Status;
            Headers = response.Headers;
            Body = response.Body ?? new byte[0];
        }

        public string Text { get { return Encoding.UTF8.GetString(Body); } }

        /// <summary>The body as JSON; JsonValue.Null for an empty body.</summary>
        public JsonValue Json { get { return Body.Length == 0 ? JsonValue.Null : GamePlatform.Client.Json.Parse(Body); } }
    }

    /// <summary>
    /// A refusal: the HTTP status, the envelope's message and its error code (`area.reason`, one of ErrorCodes'
    /// constants; match on it, not on the message), and the whole body for an operation that declares more.
    /// </summary>
    public sealed class ApiException : Exception
    {
        public readonly int Status;
        public readonly string ServerMessage;
        /// <summary>The envelope's `error`; null when the answer had none (not JSON, or not the service's).</summary>
        public readonly string ErrorCode;
        /// <summary>The body as JSON, or null when it was not JSON.</summary>
        public readonly JsonValue Body;
        public readonly Dictionary<string, string> Headers;

        public ApiException(int status, string serverMessage, string errorCode, JsonValue body, Dictionary<string, string> headers)
            : base("HTTP " + status + (errorCode != null ? " " + errorCode : "") + ": " + serverMessage)
        {
            Status = status;
            ServerMessage = serverMessage;
            ErrorCode = errorCode;
            Body = body;
            Headers = headers;
        }

        public static ApiException FromResponse(TransportResponse response)
        {
            JsonValue body = null;
            string message = null, code = null;
            try
            {
                if (response.Body != null && response.Body.Length > 0) body = Json.Parse(response.Body);
            }
            catch (JsonException)
            {
                body = null;
            }
            if (body != null && body.Kind == JsonKind.Object)
            {
                var m = body.Get("message");
                if (m != null && m.Kind == JsonKind.String) message = m.AsString();
                var e = body.Get("error");
                if (e != null && e.Kind == JsonKind.String) code = e.AsString();
            }
            if (message == null && response.Body != null) message = Encoding.UTF8.GetString(response.Body);
            return new ApiException(response.Status, message ?? "", code, body, response.Headers);
        }
    }

    /// <summary>
    /// When a call is sent again. Only answers that say nothing was done and that trying again will work: a 503
    /// with Retry-After (the table was busy; nothing was written), and a 409 whose code is
    /// data.changed_concurrently (concurrent writes kept conflicting; nothing was written) or
    /// idempotency.still_running (the first request with this key is still running; the retry answers its
    /// answer). Every retry sends the same Idempotency-Key, so a money operation is applied at most once.
    /// </summary>
    public sealed class RetryPolicy
    {
        public int MaxRetries = 3;
        /// <summary>A Retry-After longer than this is not waited for: the error goes to the caller.</summary>
        public TimeSpan MaxDelay = TimeSpan.FromSeconds(30);
        /// <summary>The first wait after a 409 without Retry-After; doubled each retry, with jitter.</summary>
        public TimeSpan ConflictDelay = TimeSpan.FromMilliseconds(200);
        /// <summary>How a wait is made (replaceable in tests).</summary>
        public Func<TimeSpan, CancellationToken, Task> Delay = Task.Delay;

        public static readonly RetryPolicy None = new RetryPolicy { MaxRetries = 0 };

        private static readonly Random Jitter = new Random();

        /// <summary>How long to wait before retrying this refusal, or null when it is not retried.</summary>
        public TimeSpan? RetryDelay(ApiException error, int retry)
        {
            if (retry >= MaxRetries) return null;
            var retryAfter = RetryAfter(error.Headers);
            TimeSpan delay;
            if (error.Status == 503 && retryAfter.HasValue) delay = retryAfter.Value;
            else if (error.Status == 409 && (error.ErrorCode == ErrorCodes.DataChangedConcurrently || error.ErrorCode == ErrorCodes.IdempotencyStillRunning))
            {
                double jitter;
                lock (Jitter) jitter = 0.5 + Jitter.NextDouble() / 2;
                delay = retryAfter ?? TimeSpan.FromMilliseconds(ConflictDelay.TotalMilliseconds * Math.Pow(2, retry) * jitter);
            }
            else return null;
            return delay <= MaxDelay ? delay : (TimeSpan?)null;
        }

        /// <summary>Retry-After as seconds or as an HTTP date; null when absent or unreadable.</summary>
        public static TimeSpan? RetryAfter(Dictionary<string, string> headers)
        {
            string value;
            if (headers == null || !headers.TryGetValue("Retry-After", out value)) return null;
            long seconds;
            if (long.TryParse(value.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out seconds)) return TimeSpan.FromSeconds(seconds);
            DateTimeOffset at;
            if (DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out at))
            {
                var wait = at - DateTimeOffset.UtcNow;
                return wait > TimeSpan.Zero ? wait : TimeSpan.Zero;
            }
            return null;
        }
    }

    /// <summary>The base URL, the transport, the bearer token and the retry rules the generated APIs share.</summary>
    public sealed class ApiClient
    {
        /// <summary>The base, for example http://localhost:3000/v2-testing or https://api.example.com/hero-prod.</summary>
        public readonly string BaseUrl;
        public readonly ITransport Transport;
        /// <summary>The bearer token of the operations that need one (which kind: each operation's summary says).</summary>
        public string Token;
        public RetryPolicy Retry = new RetryPolicy();

        public ApiClient(string baseUrl, ITransport transport)
        {
            if (baseUrl == null) throw new ArgumentNullException("baseUrl");
            BaseUrl = baseUrl.TrimEnd('/');
            if (transport == null) throw new ArgumentNullException("transport");
            Transport = transport;
        }

        /// <summary>The same base and transport with another token (a player's, a game server's).</summary>
        public ApiClient WithToken(string token)
        {
            return new ApiClient(BaseUrl, Transport) { Token = token, Retry = Retry };
        }

        /// <summary>A fresh Idempotency-Key, for a money operation called without one.</summary>
        public static string NewIdempotencyKey() { return Guid.NewGuid().ToString("D"); }

        public string UrlOf(ApiRequest request)
        {
            var root = request.FromRoot ? new Uri(BaseUrl).GetLeftPart(UriPartial.Authority) : BaseUrl;
            var url = new StringBuilder(root).Append(request.Path);
            var separator = '?';
            foreach (var parameter in request.QueryParameters)
            {
                url.Append(separator).Append(Uri.EscapeDataString(parameter.Key)).Append('=').Append(Uri.EscapeDataString(parameter.Value));
                separator = '&';
            }
            return url.ToString();
        }

        /// <summary>Sends the request, retrying as Retry says; a 2xx answer is returned, anything else thrown as ApiException.</summary>
        // No ConfigureAwait(false) here or in the generated methods: a retry must be sent from the caller's
        // context, which in Unity is the main thread UnityWebRequest has to be used from.
        public async Task<ApiResponse> SendAsync(ApiRequest request, CancellationToken cancellationToken)
        {
            var message = Build(request);
            for (var retry = 0; ; retry++)
            {
                var response = await Transport.SendAsync(message, cancellationToken);
                if (response.Status >= 200 && response.Status < 300) return new ApiResponse(response);
                var error = ApiException.FromResponse(response);
                var delay = Retry.RetryDelay(error, retry);
                if (!delay.HasValue) throw error;
                await Retry.Delay(delay.Value, cancellationToken);
            }
        }

        private TransportRequest Build(ApiRequest request)
        {
            var message = new TransportRequest { Method = request.Method, Url = UrlOf(request) };
            message.Headers["Accept"] = "application/json";
            if (request.Authenticated && !string.IsNullOrEmpty(Token)) message.Headers["Authorization"] = "Bearer " + Token;
            if (request.IdempotencyKey != null) message.Headers["Idempotency-Key"] = request.IdempotencyKey;
            if (request.JsonBody != null)
            {
                message.Headers["Content-Type"] = "application/json";
                message.Body = Encoding.UTF8.GetBytes(Json.Write(request.JsonBody));
            }
            else if (request.FormBody != null)
            {
                message.Headers["Content-Type"] = "application/x-www-form-urlencoded";
                message.Body = Encoding.UTF8.GetBytes(FormEncode(request.FormBody));
            }
            else if (request.Multipart != null)
            {
                message.Headers["Content-Type"] = request.Multipart.ContentType;
                message.Body = request.Multipart.ToBytes();
            }
            return message;
        }

        private static string FormEncode(JsonValue form)
        {
            var text = new StringBuilder();
            foreach (var member in form.Members)
            {
                if (member.Value.IsNull) continue;
                var value = member.Value.Kind == JsonKind.String ? member.Value.AsString() : Json.Write(member.Value);
                if (text.Length > 0) text.Append('&');
                text.Append(Uri.EscapeDataString(member.Key)).Append('=').Append(Uri.EscapeDataString(value));
            }
            return text.ToString();
        }
    }
}
