import { Either, ParseResult, Schema, SchemaAST } from "effect"
import { InvalidInput } from "./errors.ts"

/** The spec's FieldError: a dot path, an optional machine-readable constraint, a message. */
export interface FieldError {
  readonly field: string
  readonly constraint?: FieldConstraint
  readonly message: string
}

export interface FieldConstraint {
  readonly format?: string
  readonly pattern?: string
  readonly enum?: ReadonlyArray<string>
  readonly minLength?: number
  readonly maxLength?: number
}

const constraintOf = (ast: SchemaAST.AST): FieldConstraint | undefined => {
  if (SchemaAST.isRefinement(ast)) {
    const js = ast.annotations[SchemaAST.JSONSchemaAnnotationId] as Record<string, unknown> | undefined
    if (js !== undefined) {
      const c: { -readonly [K in keyof FieldConstraint]: FieldConstraint[K] } = {}
      if (typeof js["format"] === "string") c.format = js["format"]
      if (typeof js["pattern"] === "string") c.pattern = js["pattern"]
      if (typeof js["minLength"] === "number") c.minLength = js["minLength"]
      if (typeof js["maxLength"] === "number") c.maxLength = js["maxLength"]
      if (Object.keys(c).length > 0) return c
    }
    return constraintOf(ast.from)
  }
  if (SchemaAST.isLiteral(ast)) return { enum: [String(ast.literal)] }
  if (SchemaAST.isUnion(ast) && ast.types.every(SchemaAST.isLiteral))
    return { enum: ast.types.map((t) => String((t as SchemaAST.Literal).literal)) }
  return undefined
}

const messageOf = (issue: ParseResult.ParseIssue): string => {
  if (issue._tag === "Missing") return "is required"
  if (issue._tag === "Unexpected") return "is not allowed"
  if (issue._tag === "Composite" && SchemaAST.isUnion(issue.ast)) {
    const c = constraintOf(issue.ast)
    if (c?.enum !== undefined) return `must be one of ${c.enum.join(", ")}`
  }
  // Messages never echo the submitted value back: it may be an identifier or a secret.
  const formatted = (ParseResult.ArrayFormatter.formatIssueSync(issue)[0]?.message ?? "is invalid").replace(
    /, actual [\s\S]*$/,
    ""
  )
  return formatted.startsWith("Expected ") ? `must be ${formatted.slice("Expected ".length)}` : formatted
}

const collect = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  out: Map<string, FieldError>
): void => {
  switch (issue._tag) {
    case "Pointer":
      return collect(issue.issue, [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])], out)
    case "Composite": {
      const subs = Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      // A discriminated union whose tag picked one member reports that member's fields; a
      // value that matched no member at all is one error on the field, not one per member.
      if (SchemaAST.isUnion(issue.ast)) {
        const only = subs.length === 1 ? (subs[0] as ParseResult.ParseIssue) : undefined
        if (only !== undefined && only._tag !== "Type") return collect(only, path, out)
        break
      }
      for (const s of subs as ReadonlyArray<ParseResult.ParseIssue>) collect(s, path, out)
      return
    }
    case "Transformation":
      return collect(issue.issue, path, out)
    case "Refinement":
      // A filter that names the field it is about (`{ path, message }`) reports it there.
      if (issue.kind === "From" || issue.issue._tag === "Pointer") return collect(issue.issue, path, out)
      break
  }
  const field = path.map(String).join(".")
  if (out.has(field)) return
  const constraint = "ast" in issue ? constraintOf((issue as { readonly ast: SchemaAST.AST }).ast) : undefined
  const message = messageOf(issue)
  out.set(field, constraint === undefined ? { field, message } : { field, constraint, message })
}

/** One FieldError per invalid field, in the order the schema met them. */
export const fieldErrorsOf = (error: ParseResult.ParseError, prefix: ReadonlyArray<string> = []): Array<FieldError> => {
  const out = new Map<string, FieldError>()
  collect(error.issue, prefix, out)
  return [...out.values()]
}

export const invalidInput = (errors: ReadonlyArray<FieldError>, message?: string): InvalidInput =>
  new InvalidInput({
    message:
      message ??
      (errors.length === 1
        ? `Invalid field ${errors[0]!.field}: ${errors[0]!.message}`
        : `${errors.length} invalid fields: ${errors.map((e) => e.field).join(", ")}`),
    details: { errors }
  })

/**
 * Decodes untrusted input, reporting every invalid field at once (400 INVALID_INPUT with
 * `details.errors`). Unknown properties are ignored, as the reference service does.
 */
export const decodeInput = <A, I>(schema: Schema.Schema<A, I>, prefix: ReadonlyArray<string> = []) => {
  // Compiled at the first call, not where the operation module is loaded: ~50 decoders built
  // eagerly cost every server start several milliseconds, most for endpoints it never serves.
  let decode: ((u: unknown) => Either.Either<A, ParseResult.ParseError>) | undefined
  return (input: unknown): Either.Either<A, InvalidInput> =>
    Either.mapLeft((decode ??= Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" }))(input), (e) =>
      invalidInput(fieldErrorsOf(e, prefix))
    )
}

/** A request body that must be a JSON object, and the error when it is not. */
export const isJsonObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
export const bodyNotAnObject = (): InvalidInput => invalidInput([{ field: "body", message: "must be a JSON object" }])

/**
 * A decoder of a JSON request body: 400 on the body when it is not an object, else every invalid
 * field at once. Here rather than beside the wallet-auth bodies it was first written for: most
 * groups of endpoints use it, and importing it from there evaluated those schemas with each
 * group (DECISIONS #519).
 */
export const decodeBody = <A, I>(schema: Schema.Schema<A, I>) => {
  const d = decodeInput(schema)
  return (input: unknown): Either.Either<A, InvalidInput> => (isJsonObject(input) ? d(input) : Either.left(bodyNotAnObject()))
}
