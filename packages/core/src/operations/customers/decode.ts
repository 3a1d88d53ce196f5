import { Either, Schema } from "effect"
import { BusinessCreate, BusinessUpdate, CustomerType, IndividualCreate, IndividualUpdate } from "../../domain/customers/customer.ts"
import type { InvalidInput } from "../../domain/errors.ts"
import { bodyNotAnObject, decodeInput, type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"

/** The customer request bodies, decoded by their `customerType` variant (POST, PATCH and each row of a bulk CSV). */
export const createDecoders = { INDIVIDUAL: decodeInput(IndividualCreate), BUSINESS: decodeInput(BusinessCreate) }
export const updateDecoders = { INDIVIDUAL: decodeInput(IndividualUpdate), BUSINESS: decodeInput(BusinessUpdate) }
/** A decoded creation body, of either variant. */
export type CreateBody = Either.Either.Right<ReturnType<typeof createDecoders.INDIVIDUAL>> | Either.Either.Right<ReturnType<typeof createDecoders.BUSINESS>>
const decodeType = decodeInput(Schema.Struct({ customerType: CustomerType }))

/**
 * Picks the variant by `customerType`, then validates the whole body against it, so one answer
 * lists every invalid field. Without a valid `customerType` the individual shape is checked
 * for the other fields.
 */
export const decodeVariant = <I, B>(
  decoders: {
    readonly INDIVIDUAL: (u: unknown) => Either.Either<I, InvalidInput>
    readonly BUSINESS: (u: unknown) => Either.Either<B, InvalidInput>
  },
  input: unknown
): Either.Either<I | B, InvalidInput> => {
  if (!isJsonObject(input)) return Either.left(bodyNotAnObject())
  // A valid type is one of two literals: compared here, not decoded (the schema's answer for
  // them is the same, and a decode of its own was ~0.2 µs of every creation, DECISIONS #512).
  if (input["customerType"] === "INDIVIDUAL") return decoders.INDIVIDUAL(input)
  if (input["customerType"] === "BUSINESS") return decoders.BUSINESS(input)
  // Anything else fails the type's schema: its error, then the other fields as an individual's.
  const typed = decodeType(input)
  if (Either.isRight(typed)) return decoders[typed.right.customerType](input)
  const typeError = (typed.left.details!["errors"] as ReadonlyArray<FieldError>)[0]!
  const rest = decoders.INDIVIDUAL({ ...input, customerType: "INDIVIDUAL" })
  const others = Either.isLeft(rest) ? (rest.left.details!["errors"] as ReadonlyArray<FieldError>) : []
  return Either.left(invalidInput([typeError, ...others]))
}

