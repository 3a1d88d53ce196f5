export { startServer } from "./cli.ts"
export { ConfigError, readConfig, type ServeFlags, type ServerConfig, DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "./config.ts"
export { SERVE_OPTIONS } from "./options.ts"
