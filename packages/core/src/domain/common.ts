import { Schema } from "effect"

/** Field formats shared by every resource, each with the constraint a client can read back. */

export const NonEmpty = (maxLength: number) =>
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(maxLength))

export const CountryCode = Schema.String.pipe(
  Schema.pattern(/^[A-Z]{2}$/, {
    message: () => "must be an ISO 3166-1 alpha-2 country code",
    jsonSchema: { format: "iso3166-1-alpha-2", pattern: "^[A-Z]{2}$" }
  })
)

export const CurrencyCode = Schema.String.pipe(
  Schema.pattern(/^[A-Z][A-Z0-9]{2,9}$/, {
    message: () => "must be a currency code (ISO 4217 or a ticker such as USDC)",
    jsonSchema: { pattern: "^[A-Z][A-Z0-9]{2,9}$" }
  })
)

// The same grammar ajv-formats uses for `format: email`, so what we accept the reference accepts.
const emailRegex =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

export const Email = Schema.String.pipe(
  Schema.maxLength(254),
  Schema.pattern(emailRegex, { message: () => "must be an email address", jsonSchema: { format: "email" } })
)

export const PhoneNumber = Schema.String.pipe(
  Schema.pattern(/^\+[1-9]\d{1,14}$/, {
    message: () => "must be a phone number in E.164 format",
    jsonSchema: { format: "e.164", pattern: "^\\+[1-9]\\d{1,14}$" }
  })
)

const isCalendarDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (m === null) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const dt = new Date(Date.UTC(y, mo - 1, d))
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d
}

export const CalendarDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, {
    message: () => "must be a date in YYYY-MM-DD format",
    jsonSchema: { format: "date" }
  })
)

const rfc3339Regex = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

export const DateTimeString = Schema.String.pipe(
  Schema.filter((s) => rfc3339Regex.test(s) && !Number.isNaN(Date.parse(s)), {
    message: () => "must be an RFC 3339 date-time",
    jsonSchema: { format: "date-time" }
  })
)

export const Address = Schema.Struct({
  line1: NonEmpty(250),
  line2: Schema.optionalWith(NonEmpty(250), { exact: true }),
  city: Schema.optionalWith(NonEmpty(100), { exact: true }),
  state: Schema.optionalWith(NonEmpty(100), { exact: true }),
  postalCode: NonEmpty(20),
  country: CountryCode
})
export type Address = typeof Address.Type

export const optional = <S extends Schema.Schema.Any>(s: S) => Schema.optionalWith(s, { exact: true })
