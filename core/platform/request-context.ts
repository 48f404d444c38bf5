import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What identifies the request (or scheduled run) being served, for its log lines and its metrics: the Lambda
 * request id (`context.awsRequestId`, which Lambda's own START/END/REPORT lines carry), API Gateway's request id
 * (`requestContext.requestId`, which its access log carries) and the operation the route table sent it to.
 *
 * The Lambda entry points (functions/deployed.ts, the jobs) run each invocation inside `withRequestContext`;
 * createGroupApp notes the operation once a route matched; core/platform/log.ts adds the ids to every line it
 * writes. Outside any invocation (the local server, tests) there is no context and nothing is added.
 */
export interface RequestContext {
  /** Lambda's request id of the invocation. */
  requestId?: string;
  /** API Gateway's request id (HTTP API `requestContext.requestId`). */
  apiRequestId?: string;
  /** The route table group and operation that served the request, once a route matched. */
  group?: string;
  operation?: string;
}

const store = new AsyncLocalStorage<RequestContext>();

export function withRequestContext<T>(context: RequestContext, run: () => T): T {
  return store.run(context, run);
}

/** Records which operation serves the current request (a no-op outside an invocation). */
export function noteOperation(group: string, operation: string): void {
  const context = store.getStore();
  if (context) Object.assign(context, { group, operation });
}

/**
 * The fields every log line of the current request carries, under Powertools' names: `function_request_id` (what
 * the logger's addContext writes) and `correlation_id` (its correlation id; for API Gateway, the request id).
 */
export function requestLogFields(): Record<string, string> {
  const context = store.getStore();
  if (!context) return {};
  const fields: Record<string, string> = {};
  if (context.requestId) fields.function_request_id = context.requestId;
  if (context.apiRequestId) fields.correlation_id = context.apiRequestId;
  if (context.operation) fields.operation = context.group ? `${context.group}.${context.operation}` : context.operation;
  return fields;
}
