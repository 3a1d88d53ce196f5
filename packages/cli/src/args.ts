import { parseArgs } from "node:util"
import { SERVE_OPTIONS, type ServeFlags } from "./options.ts"

export type Command =
  | { readonly _tag: "Help"; readonly topic: "tessera" | "serve" }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Serve"; readonly flags: ServeFlags }

/** A command line that names no known command or option; the message is one line with a hint. */
export class UsageError extends Error {}

const HELP_TOP = 'run "tessera --help" for usage'
const HELP_SERVE = 'run "tessera serve --help" for usage'

type Token =
  | { readonly kind: "option"; readonly name: string; readonly rawName: string; readonly value?: string | undefined; readonly inlineValue?: boolean | undefined }
  | { readonly kind: "positional"; readonly value: string }
  | { readonly kind: "option-terminator" }

// strict: false with tokens, so every message below is ours (one line, with a hint) rather than
// parseArgs' multi-line ones; a new flag is one row in SERVE_OPTIONS.
const tokensOf = (args: ReadonlyArray<string>, options: Record<string, { type: "string" | "boolean"; short?: string }>) =>
  (parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true }).tokens ?? []) as ReadonlyArray<Token>

const topOptions = { help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" } } as const

const serveOptions = {
  help: { type: "boolean", short: "h" },
  ...Object.fromEntries(SERVE_OPTIONS.map((o) => [o.flag, { type: "string" }]))
} as Record<string, { type: "string" | "boolean"; short?: string }>

export const parseCommandLine = (argv: ReadonlyArray<string>): Command => {
  // Top-level options take no value, so the first word not starting with "-" is the command.
  const at = argv.findIndex((a) => !a.startsWith("-"))
  const before = at === -1 ? argv : argv.slice(0, at)
  const command = at === -1 ? undefined : argv[at]
  const rest = at === -1 ? [] : argv.slice(at + 1)
  for (const t of tokensOf(before, topOptions)) {
    if (t.kind === "option-terminator") continue
    if (t.kind === "positional") throw new UsageError(`unexpected argument ${JSON.stringify(t.value)}; ${HELP_TOP}`)
    if ((t.name === "help" || t.name === "version") && t.value === undefined)
      return t.name === "version" ? { _tag: "Version" } : { _tag: "Help", topic: command === "serve" ? "serve" : "tessera" }
    if (t.name === "help" || t.name === "version") throw new UsageError(`${t.rawName} takes no value; ${HELP_TOP}`)
    if (SERVE_OPTIONS.some((o) => o.flag === t.name))
      throw new UsageError(`${t.rawName} is an option of serve and goes after it (tessera serve ${t.rawName} ...); ${HELP_TOP}`)
    throw new UsageError(`unknown option ${JSON.stringify(t.rawName)}; ${HELP_TOP}`)
  }
  if (command === undefined) return { _tag: "Help", topic: "tessera" }
  if (command === "help") {
    const topic = rest[0]
    if (topic === undefined) return { _tag: "Help", topic: "tessera" }
    if (topic === "serve") return { _tag: "Help", topic: "serve" }
    throw new UsageError(`no help for ${JSON.stringify(topic)}: the only command is serve; ${HELP_TOP}`)
  }
  if (command === "serve") return parseServe(rest)
  throw new UsageError(`unknown command ${JSON.stringify(command)}; ${HELP_TOP}`)
}

const parseServe = (args: ReadonlyArray<string>): Command => {
  const tokens = tokensOf(args, serveOptions)
  // Help wins wherever it appears, before any other complaint: it is what the user asked for.
  if (tokens.some((t) => (t.kind === "option" && t.name === "help") || (t.kind === "positional" && t.value === "help")))
    return { _tag: "Help", topic: "serve" }
  const flags: Record<string, string> = {}
  for (const t of tokens) {
    if (t.kind === "option-terminator") continue
    if (t.kind === "positional") throw new UsageError(`unexpected argument ${JSON.stringify(t.value)} for serve; ${HELP_SERVE}`)
    const option = SERVE_OPTIONS.find((o) => o.flag === t.name)
    if (option === undefined) throw new UsageError(`unknown option ${JSON.stringify(t.rawName)} for serve; ${HELP_SERVE}`)
    // `--port --host x` would otherwise read "--host" as the port.
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith("--")))
      throw new UsageError(`${t.rawName} needs a value (${t.rawName} ${option.placeholder} or ${t.rawName}=${option.placeholder}); ${HELP_SERVE}`)
    flags[option.key] = t.value
  }
  return { _tag: "Serve", flags }
}
