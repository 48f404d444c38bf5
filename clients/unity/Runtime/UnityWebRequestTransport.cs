// The transport a Unity game uses: UnityWebRequest works on every platform Unity builds for (WebGL included,
// where System.Net.Http does not). It needs UnityEngine, so it compiles only inside Unity.
#if UNITY_5_3_OR_NEWER
using System.Threading;
using System.Threading.Tasks;
using UnityEngine.Networking;

namespace GamePlatform.Client
{
    public sealed class UnityWebRequestTransport : ITransport
    {
        /// <summary>Seconds before a request is abandoned; 0 leaves UnityWebRequest's own (none).</summary>
        public int TimeoutSeconds = 30;

        // Called from the main thread, as UnityWebRequest must be; the Task completes on the main thread too.
        public Task<TransportResponse> SendAsync(TransportRequest request, CancellationToken cancellationToken)
        {
            var web = new UnityWebRequest(request.Url, request.Method);
            web.downloadHandler = new DownloadHandlerBuffer();
            if (request.Body != null)
            {
                web.uploadHandler = new UploadHandlerRaw(request.Body);
                // The upload handler's type is what UnityWebRequest sends unless told: the request's own.
                string contentType;
                if (request.Headers.TryGetValue("Content-Type", out contentType)) web.uploadHandler.contentType = contentType;
            }
            foreach (var header in request.Headers) web.SetRequestHeader(header.Key, header.Value);
            web.timeout = TimeoutSeconds;
            // Redirects are not followed, as ITransport says: UnityWebRequest stops at the 3xx (with a "Redirect
            // limit exceeded" error beside its status and headers), answered here with its Location, where DevSignIn
            // reads the id_token. On WebGL the browser cannot hand a redirect over: there it is no answer at all.
            web.redirectLimit = 0;
            var done = new TaskCompletionSource<TransportResponse>();
            var registration = cancellationToken.Register(() => { web.Abort(); done.TrySetCanceled(); });
            var operation = web.SendWebRequest();
            operation.completed += _ =>
            {
                registration.Dispose();
                // A status of 0 is no answer at all (no connection, a timeout, an abort).
                if (web.responseCode == 0) done.TrySetException(new TransportException(web.error ?? "no answer"));
                else
                {
                    var response = new TransportResponse { Status = (int)web.responseCode, Body = web.downloadHandler.data ?? new byte[0] };
                    var headers = web.GetResponseHeaders();
                    if (headers != null) foreach (var header in headers) response.Headers[header.Key] = header.Value;
                    done.TrySetResult(response);
                }
                web.Dispose();
            };
            return done.Task;
        }
    }

    public sealed class TransportException : System.Exception
    {
        public TransportException(string message) : base(message) { }
    }
}
#endif
