// How requests leave the client: one interface, so that a game uses UnityWebRequest and a desktop tool or a
// test uses System.Net.Http, with the same generated client above either.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace GamePlatform.Client
{
    public sealed class TransportRequest
    {
        public string Method;
        public string Url;
        /// <summary>Header names as sent; Content-Type among them when there is a body.</summary>
        public Dictionary<string, string> Headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        /// <summary>Null for a request without a body.</summary>
        public byte[] Body;
    }

    public sealed class TransportResponse
    {
        public int Status;
        /// <summary>Header names in any letter case; a repeated header's values joined with ", ".</summary>
        public Dictionary<string, string> Headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        public byte[] Body = new byte[0];
    }

    public interface ITransport
    {
        /// <summary>
        /// Sends one request and answers whatever status came back, a redirect (3xx) included: it is not followed,
        /// its Location header is in the answer. Throws only when no answer came.
        /// </summary>
        Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken);
    }
}
