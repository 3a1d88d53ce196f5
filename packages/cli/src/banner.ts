import type { AddressInfo } from "node:net"
import { BASE_PATH, type RunningServer } from "@tessera/adapter-http"
import type { ServerConfig } from "./config.ts"
import { isPostgresUrl, redactedUrl } from "./options.ts"

/**
 * One shell word for `s`, for POSIX shells and zsh: left bare when every character is inert,
 * single-quoted otherwise. `=` and `~` stay out of the bare set: zsh expands a word starting with
 * `=`, and `~` at the start is the home directory.
 */
export const shellQuote = (s: string): string =>
  /^[A-Za-z0-9_@%+,./:-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`

/**
 * The URL a client on this machine connects to: the bound port (the real one when 0 was asked)
 * and, for a wildcard address, the loopback one, since 0.0.0.0 or :: is not an address to dial.
 */
export const reachableUrl = (address: AddressInfo): string => {
  const wildcard = address.address === "0.0.0.0" || address.address === "::"
  const host = wildcard ? "127.0.0.1" : address.family === "IPv6" ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}${BASE_PATH}`
}

/**
 * A `curl` command that works when pasted: the default secret verbatim, a secret from the
 * environment by reference (never printed), the client id quoted when it needs it.
 */
export const curlExample = (url: string, clientId: string, secret: { readonly fromEnv: true } | { readonly fromEnv: false; readonly value: string }): string => {
  const password = secret.fromEnv ? `"$TESSERA_CLIENT_SECRET"` : shellQuote(secret.value)
  // curl reads [ ] in a URL as a range pattern; -g turns that off for an IPv6 literal.
  const glob = url.includes("[") ? "-g " : ""
  return `curl ${glob}-u ${shellQuote(clientId)}:${password} ${shellQuote(`${url}/customers`)}`
}

export const bannerText = (config: ServerConfig, server: RunningServer, secretFromEnv: boolean, readyMs: number): string => {
  const url = reachableUrl(server.server.address() as AddressInfo)
  const example = curlExample(url, config.clientId, secretFromEnv ? { fromEnv: true } : { fromEnv: false, value: config.clientSecret })
  return [
    `Tessera sandbox listening on ${server.url}`,
    `  store:         ${config.db === ":memory:" ? "memory (lost on exit)" : isPostgresUrl(config.db) ? `PostgreSQL ${redactedUrl(config.db)}` : `SQLite ${config.db}`}`,
    `  clock:         ${config.clock}`,
    ...(config.seedFile === undefined ? [] : [`  seeded from:   ${config.seedFile}`]),
    `  client id:     ${config.clientId}`,
    `  client secret: ${secretFromEnv ? "(from TESSERA_CLIENT_SECRET)" : config.clientSecret}`,
    `  webhooks:      ${config.webhookUrl ?? "(none yet: PATCH /config webhookEndpoint, or --webhook-url / TESSERA_WEBHOOK_URL at start)"}; signing key at ${url}/sandbox/webhooks/public-key`,
    `  try:           ${example}`,
    `  ready in ${readyMs.toFixed(0)} ms`,
    ""
  ].join("\n")
}
