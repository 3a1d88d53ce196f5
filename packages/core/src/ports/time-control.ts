import { Clock, Context, Duration, Effect, Layer, Option, type Scope } from "effect"
import { Conflict, InvalidInput } from "../domain/errors.ts"
import { collection, SERVER_SCOPE, Store, type StoreError } from "./store.ts"
import { MAX_ADVANCE_SECONDS } from "../limits.ts"

export type ClockMode = "real" | "virtual"

/**
 * A clock that stands still until told to move: every expiry and delayed outcome of the engine
 * reads Effect's `Clock`, so advancing this one drives them all (DECISIONS #20). Sleepers wake
 * when an advance carries the time past their deadline.
 */
export class VirtualClock implements Clock.Clock {
  readonly [Clock.ClockTypeId]: Clock.ClockTypeId = Clock.ClockTypeId
  private sleepers: Array<{ readonly at: number; readonly wake: () => void }> = []
  constructor(public nowMs: number) {}
  unsafeCurrentTimeMillis(): number {
    return this.nowMs
  }
  readonly currentTimeMillis = Effect.sync(() => this.nowMs)
  unsafeCurrentTimeNanos(): bigint {
    return BigInt(this.nowMs) * 1_000_000n
  }
  readonly currentTimeNanos = Effect.sync(() => this.unsafeCurrentTimeNanos())
  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return Effect.async<void>((resume) => {
      const entry = { at: this.nowMs + Duration.toMillis(duration), wake: () => resume(Effect.void) }
      if (entry.at <= this.nowMs) return resume(Effect.void)
      this.sleepers.push(entry)
      return Effect.sync(() => {
        this.sleepers = this.sleepers.filter((s) => s !== entry)
      })
    })
  }
  /** Moves time forward and wakes every sleeper whose deadline has come. */
  setTime(ms: number): void {
    this.nowMs = Math.max(this.nowMs, ms)
    const due = this.sleepers.filter((s) => s.at <= this.nowMs)
    this.sleepers = this.sleepers.filter((s) => s.at > this.nowMs)
    for (const s of due) s.wake()
  }
}

interface ClockSetting {
  readonly name: "clock"
  readonly nowMs: number
}
const Settings = collection<ClockSetting>()("settings", (s) => s.name)


export interface TimeControlService {
  readonly mode: ClockMode
  readonly advance: (seconds: number) => Effect.Effect<number, Conflict | InvalidInput | StoreError>
  /**
   * Brings this process's clock up to the time the Store holds, which another instance on the
   * same database may have advanced (DECISIONS #302). Nothing to do on a real clock.
   */
  readonly sync: Effect.Effect<void, StoreError>
}

export class TimeControl extends Context.Tag("@tessera/TimeControl")<TimeControl, TimeControlService>() {
  /** The service `real` provides. */
  static readonly realService: TimeControlService = {
    mode: "real",
    sync: Effect.void,
    advance: () =>
      Effect.fail(
        new Conflict({
          message: "The clock is real; start the server with TESSERA_CLOCK=virtual to move it",
          details: { reason: "CLOCK_NOT_VIRTUAL" }
        })
      )
  }

  static readonly real: Layer.Layer<TimeControl> = Layer.succeed(TimeControl, TimeControl.realService)

  /**
   * A virtual clock whose time is kept in the Store, so a restarted server resumes where the
   * last advance left it instead of jumping back to wall-clock time, and several instances on one
   * database share one time: an advance moves the stored time forward from the later of it and
   * this process's (two advances of 30 s on two instances make 60 s), and `sync` moves this
   * process's clock up to it (DECISIONS #302).
   */
  static readonly virtual = (startMs: number): Layer.Layer<TimeControl, never, Store> => Layer.scoped(TimeControl, TimeControl.virtualService(startMs))

  /**
   * The service `virtual` provides, made by an effect that also makes its clock Effect's for the
   * rest of the scope, as `Layer.setClock` does (the engine makes its services so, DECISIONS #509).
   */
  static readonly virtualService = (startMs: number): Effect.Effect<TimeControlService, never, Store | Scope.Scope> =>
    Effect.gen(function* () {
      const clock = new VirtualClock(startMs)
      const store = yield* Store
      // The stored time is the time: a restarted server resumes exactly there, and an instance
      // joining others on one database takes theirs. The first start on a database stores its
      // own, so instances started one after another do not each begin at their own wall-clock
      // start (DECISIONS #302). A store that cannot answer here is fatal: the engine fails to start.
      const stored = yield* Effect.orDie(
        store.transaction(
          Effect.gen(function* () {
            const saved = Option.getOrUndefined(yield* store.get(Settings, SERVER_SCOPE, "clock"))
            if (saved !== undefined) return saved.nowMs
            yield* store.put(Settings, SERVER_SCOPE, { name: "clock", nowMs: startMs })
            return startMs
          })
        )
      )
      clock.nowMs = stored
      yield* Effect.withClockScoped(clock)
      return {
        mode: "virtual" as const,
        advance: (seconds: number) =>
          !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS
            ? Effect.fail(
                new InvalidInput({
                  message: "seconds must be a non-negative number of seconds",
                  details: {
                    errors: [{ field: "seconds", message: `must be between 0 and ${MAX_ADVANCE_SECONDS}` }]
                  }
                })
              )
            : store
                .transaction(
                  Effect.gen(function* () {
                    const stored = Option.getOrUndefined(yield* store.get(Settings, SERVER_SCOPE, "clock"))
                    const nowMs = Math.max(stored?.nowMs ?? 0, clock.nowMs) + Math.round(seconds * 1000)
                    yield* store.put(Settings, SERVER_SCOPE, { name: "clock", nowMs })
                    return nowMs
                  })
                )
                .pipe(
                  Effect.map((nowMs) => {
                    clock.setTime(nowMs)
                    return clock.nowMs
                  })
                ),
        sync: Effect.map(store.get(Settings, SERVER_SCOPE, "clock"), (stored) => {
          if (Option.isSome(stored)) clock.setTime(stored.value.nowMs)
        })
      } satisfies TimeControlService
    })
}
