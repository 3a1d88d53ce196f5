/**
 * A value built at its first use and kept. The state document's schemas (one per collection,
 * several hundred Schema objects) are needed only by `GET`/`PUT /sandbox/state` and `--seed-file`;
 * built where their modules load, they cost every server start ~10 ms and the garbage collector
 * more (DECISIONS #464).
 */
export const lazily = <A>(build: () => A): (() => A) => {
  let built: { readonly value: A } | undefined
  return () => (built ??= { value: build() }).value
}
