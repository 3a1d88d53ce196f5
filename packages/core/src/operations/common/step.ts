import { Effect } from "effect"
import type { Transition } from "../../machines/transition.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"

/** One machine step as an operation sees it: the transition, how to store its state, what to answer. */
export interface Stepped<S, A, E = never, R = never> {
  readonly transition: Transition<S>
  readonly save: (state: S) => Effect.Effect<void, E, R>
  readonly view: (state: S) => A
}

/**
 * Runs `step` (load, decode, machine step) in a Store transaction, saves the next state and
 * publishes the emitted events in it; once that committed, fails with the transition's deferred
 * answer if it has one, else answers the view. The one way an operation persists a state and
 * still answers an error. It must be the outermost transaction: nested in another, the answer
 * would roll the outer one back, and the state with it.
 */
export const commitStep = <S, A, E, R, E2, R2>(scope: string, step: Effect.Effect<Stepped<S, A, E2, R2>, E, R>) =>
  Effect.gen(function* () {
    const store = yield* Store
    const notifier = yield* Notifier
    const done = yield* store.transaction(
      Effect.gen(function* () {
        const { transition, save, view } = yield* step
        yield* save(transition.state)
        for (const event of transition.emit) yield* notifier.publish(scope, event)
        return { answer: transition.answer, value: view(transition.state) }
      })
    )
    return done.answer === undefined ? done.value : yield* Effect.fail(done.answer)
  })
