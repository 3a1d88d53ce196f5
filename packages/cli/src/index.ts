export { startServer } from "./cli.ts"
export { readConfig, type ServerConfig, DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "./config.ts"
