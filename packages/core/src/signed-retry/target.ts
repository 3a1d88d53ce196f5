/**
 * What a signed retry binds besides the body and account: the request's method and concrete
 * path (`/auth/sessions/Session:…`). A signed endpoint's declaration supplies it (endpoints/),
 * so no operation spells a path.
 */
export interface SignedTarget {
  readonly method: string
  readonly path: string
}
