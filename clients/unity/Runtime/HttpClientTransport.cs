// The transport over System.Net.Http: desktop tools, servers and the tests (Mono, .NET).
using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace GamePlatform.Client
{
    public sealed class HttpClientTransport : ITransport
    {
        private readonly HttpClient http;

        /// <summary>
        /// One HttpClient for the transport's life: it keeps its connections for the next requests. It does not
        /// follow redirects (AllowAutoRedirect = false): a 3xx is answered as it came, Location included, as
        /// ITransport says (DevSignIn reads its id_token there; a bearer token is never sent on to another host).
        /// </summary>
        public HttpClientTransport() : this(new HttpClient(new HttpClientHandler { AllowAutoRedirect = false })) { }

        /// <summary>
        /// An HttpClient of your own (a proxy, a timeout, a handler for tests), used as it is configured: build it
        /// on a handler with AllowAutoRedirect = false for redirects to be answered as they came (DevSignIn needs it).
        /// </summary>
        public HttpClientTransport(HttpClient http)
        {
            if (http == null) throw new ArgumentNullException("http");
            this.http = http;
        }

        public async Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            using (var message = new HttpRequestMessage(new HttpMethod(request.Method), request.Url))
            {
                string contentType = null;
                foreach (var header in request.Headers)
                {
                    if (string.Equals(header.Key, "Content-Type", StringComparison.OrdinalIgnoreCase)) contentType = header.Value;
                    else message.Headers.TryAddWithoutValidation(header.Key, header.Value);
                }
                if (request.Body != null)
                {
                    message.Content = new ByteArrayContent(request.Body);
                    if (contentType != null) message.Content.Headers.TryAddWithoutValidation("Content-Type", contentType);
                }
                using (var answer = await http.SendAsync(message, cancellationToken).ConfigureAwait(false))
                {
                    var response = new TransportResponse { Status = (int)answer.StatusCode };
                    Collect(response.Headers, answer.Headers);
                    if (answer.Content != null)
                    {
                        Collect(response.Headers, answer.Content.Headers);
                        response.Body = await answer.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
                    }
                    return response;
                }
            }
        }

        private static void Collect(Dictionary<string, string> into, IEnumerable<KeyValuePair<string, IEnumerable<string>>> headers)
        {
            foreach (var header in headers) into[header.Key] = string.Join(", ", header.Value);
        }
    }
}
