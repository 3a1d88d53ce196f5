import { ENV_ONLY, SERVE_OPTIONS } from "./options.ts"

const EXIT_STATUS = `Exit status: 0 after SIGINT or SIGTERM, 2 for a problem with the command line, the
configuration or the environment (a busy port, an unusable database path or host), 1 for
anything unexpected.`

export const topUsage = `Usage: tessera <command> [options]

Commands:
  serve           start the sandbox server (tessera serve --help for its options)
  help [command]  show this help, or a command's

Options:
  -h, --help      show this help
  -v, --version   print the version
`

const column = (rows: ReadonlyArray<readonly [string, string]>) => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join("\n")
}

export const serveUsage = `Usage: tessera serve [options]

Starts the Tessera sandbox server. Every option can also be set by its environment variable;
an option given on the command line wins over the variable.

Options (environment variable, meaning):
${column([
  ...SERVE_OPTIONS.map((o) => [`--${o.flag} ${o.placeholder}`, `${o.env.padEnd(20)} ${o.help}`] as const),
  ["-h, --help", `${"".padEnd(20)} show this help`]
])}

Environment only:
${column(ENV_ONLY.map((o) => [o.env, o.help] as const))}

The client secret has no flag on purpose: command lines are visible to other users in ps.

${EXIT_STATUS}
`
