import { Cause, Runtime } from "effect"
import { UsageError } from "./args.ts"
import { ConfigError } from "./config.ts"
import { firstLine, rootCause, StartupError } from "./startup-errors.ts"

export const DEBUG_VARIABLE = "TESSERA_DEBUG"

export interface FailureReport {
  /** What goes to stderr: one line, plus the stack when debugging. */
  readonly text: string
  /** 2: the user can fix the command line, the configuration or the environment; 1: anything else. */
  readonly exitCode: 1 | 2
}

const stackOf = (e: unknown): string =>
  Runtime.isFiberFailure(e) ? Cause.pretty(e[Runtime.FiberFailureCauseId]) : e instanceof Error ? (e.stack ?? e.message) : String(e)

export const reportFailure = (e: unknown, debug: boolean): FailureReport => {
  if (e instanceof UsageError || e instanceof ConfigError || e instanceof StartupError) {
    const detail = debug && e.cause !== undefined ? `${stackOf(e.cause)}\n` : ""
    return { text: `tessera: ${e.message}\n${detail}`, exitCode: 2 }
  }
  const cause = rootCause(e)
  const message = cause instanceof Error ? firstLine(cause.message) || cause.name : firstLine(String(cause))
  const line = `tessera: unexpected error: ${message}`
  return debug
    ? { text: `${line}\n${stackOf(e)}\n`, exitCode: 1 }
    : { text: `${line} (set ${DEBUG_VARIABLE}=1 to see the stack)\n`, exitCode: 1 }
}
