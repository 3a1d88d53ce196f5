import { Either, Schema } from "effect"
import { BusinessCreate, BusinessUpdate, CustomerType, IndividualCreate, IndividualUpdate } from "../../domain/customers/customer.ts"
import type { InvalidInput } from "../../domain/errors.ts"
import { bodyNotAnObject, decodeInput, type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"

/** The customer request bodies, decoded by their `customerType` variant (POST, PATCH and each row of a bulk CSV). */
export const createDecoders = { INDIVIDUAL: decodeInput(IndividualCreate), BUSINESS: decodeInput(BusinessCreate) }
export const updateDecoders = { INDIVIDUAL: decodeInput(IndividualUpdate), BUSINESS: decodeInput(BusinessUpdate) }
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
  const typed = decodeType(input)
  if (Either.isRight(typed))
    return typed.right.customerType === "INDIVIDUAL" ? decoders.INDIVIDUAL(input) : decoders.BUSINESS(input)
  const typeError = (typed.left.details!["errors"] as ReadonlyArray<FieldError>)[0]!
  const rest = decoders.INDIVIDUAL({ ...input, customerType: "INDIVIDUAL" })
  const others = Either.isLeft(rest) ? (rest.left.details!["errors"] as ReadonlyArray<FieldError>) : []
  return Either.left(invalidInput([typeError, ...others]))
}

