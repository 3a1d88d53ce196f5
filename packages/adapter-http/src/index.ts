export {
  BASE_PATH,
  makeHandler,
  readCap,
  type HandlerOptions,
  type HttpRequest,
  type HttpResponse,
  type MountOptions,
  type RequestLogEntry
} from "./handler.ts"
export { nodeListener, serve, type NodeListenerOptions, type RunningServer, type ServeOptions, type ServerTimeouts } from "./node-server.ts"
export { toFetchHandler, type FetchHandlerOptions } from "./fetch-handler.ts"
export { bodyParserErrors } from "./body-parser-errors.ts"
export { isMultipart, parseMultipart } from "./multipart.ts"
export { routes, makeMatcher, type Route } from "./routes.ts"
export { startWebhookWorker, type WebhookWorker } from "./webhook-worker.ts"
export { startDueRunner, type DueRunner } from "./due-runner.ts"
