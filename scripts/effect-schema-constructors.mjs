// Effect's schemas as plain functions in the CLI bundle (DECISIONS #496). Every Effect schema is
// made by Schema.js's `make(ast)`, which returns a new class with nine static members, and most
// kinds (a struct, a refinement, a literal…) then extend that class with a class of their own.
// V8 gives every class a map of its own, so each static member added to one makes new maps
// instead of following transitions shared with the schemas made before: ~6 µs for each of the
// ~700 schemas and ~700 kind classes a start makes. Here `make` returns a plain function that
// inherits `annotations` and `pipe` from one base function and holds the rest itself, and the
// common kinds add their members to that same function instead of subclassing it, so every
// schema of a kind follows the same maps. A schema reads and behaves as before: the same members
// (methods not enumerable, as a class's), the type id `isSchema` looks for, a TypeError when
// called without `new`, `class X extends Schema.Struct(…)` and the kinds left as classes
// (Record, Brand, Enums…) extending it. What differs is only its shape under reflection: a kind's
// members are all its own (`Object.keys` of a struct lists `ast`, `Type`, `Encoded` and `Context`
// beside `fields`, where the class had them on its parent) and its name is `SchemaClass`.
//
// Each replaced function is identified by the SHA-256 of Effect's text of it, so an Effect whose
// code differs fails the build, naming the function, rather than ship a half-applied patch.
import { createHash } from "node:crypto"

const sha = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16)

// The base every schema function inherits `annotations` and `pipe` from, written just before
// `make` (it reads nothing when it is defined, and nothing in the module calls `make` before it).
const BASE = `// tessera (scripts/effect-schema-constructors.mjs): what every schema inherits.
const defineMethods = (target, methods) => {
  for (const name of Object.keys(methods)) Object.defineProperty(target, name, { value: methods[name], writable: true, configurable: true });
  return target;
};
const SchemaBase = /*#__PURE__*/defineMethods(function SchemaBase() {}, {
  annotations(annotations) {
    return make(mergeSchemaAnnotations(this.ast, annotations));
  },
  pipe() {
    return pipeArguments(this, arguments);
  }
});
`

/** Each function to replace: its name, the hash of Effect's text of it, and the replacement. */
const FUNCTIONS = [
  ["make", "b36425915d199011", `${BASE}export function make(ast) {
  const SchemaClass = function SchemaClass() {
    if (new.target === undefined) throw new TypeError("Class constructor SchemaClass cannot be invoked without 'new'");
    this[TypeId] = variance;
  };
  Object.setPrototypeOf(SchemaClass, SchemaBase);
  Object.defineProperty(SchemaClass, "toString", { value: () => String(ast), writable: true, configurable: true });
  SchemaClass.ast = ast;
  SchemaClass.Type = undefined;
  SchemaClass.Encoded = undefined;
  SchemaClass.Context = undefined;
  SchemaClass[TypeId] = variance;
  return SchemaClass;
}`],
  ["makeLiteralClass", "e9da90a146628d33", `function makeLiteralClass(literals, ast = getDefaultLiteralAST(literals)) {
  const LiteralClass = defineMethods(make(ast), { annotations(annotations) {
    return makeLiteralClass(this.literals, mergeSchemaAnnotations(this.ast, annotations));
  } });
  LiteralClass.literals = [...literals];
  return LiteralClass;
}`],
  ["makeDeclareClass", "bdd50843d14933da", `function makeDeclareClass(typeParameters, ast) {
  const DeclareClass = defineMethods(make(ast), { annotations(annotations) {
    return makeDeclareClass(this.typeParameters, mergeSchemaAnnotations(this.ast, annotations));
  } });
  DeclareClass.typeParameters = [...typeParameters];
  return DeclareClass;
}`],
  ["makeUnionClass", "db46e7f37a8a822d", `function makeUnionClass(members, ast = getDefaultUnionAST(members)) {
  const UnionClass = defineMethods(make(ast), { annotations(annotations) {
    return makeUnionClass(this.members, mergeSchemaAnnotations(this.ast, annotations));
  } });
  UnionClass.members = [...members];
  return UnionClass;
}`],
  ["makeTupleTypeClass", "29517aee504381f5", `function makeTupleTypeClass(elements, rest, ast = getDefaultTupleTypeAST(elements, rest)) {
  const TupleTypeClass = defineMethods(make(ast), { annotations(annotations) {
    return makeTupleTypeClass(this.elements, this.rest, mergeSchemaAnnotations(this.ast, annotations));
  } });
  TupleTypeClass.elements = [...elements];
  TupleTypeClass.rest = [...rest];
  return TupleTypeClass;
}`],
  ["makeArrayClass", "dde289d69d05d9b0", `function makeArrayClass(value, ast) {
  const ArrayClass = defineMethods(makeTupleTypeClass([], [value], ast), { annotations(annotations) {
    return makeArrayClass(this.value, mergeSchemaAnnotations(this.ast, annotations));
  } });
  ArrayClass.value = value;
  return ArrayClass;
}`],
  ["makeNonEmptyArrayClass", "946b6ff19ac05407", `function makeNonEmptyArrayClass(value, ast) {
  const NonEmptyArrayClass = defineMethods(makeTupleTypeClass([value], [value], ast), { annotations(annotations) {
    return makeNonEmptyArrayClass(this.value, mergeSchemaAnnotations(this.ast, annotations));
  } });
  NonEmptyArrayClass.value = value;
  return NonEmptyArrayClass;
}`],
  ["makeTypeLiteralClass", "3ffe014b2e385500", `function makeTypeLiteralClass(fields, records, ast = getDefaultTypeLiteralAST(fields, records)) {
  const TypeLiteralClass = defineMethods(make(ast), {
    annotations(annotations) {
      return makeTypeLiteralClass(this.fields, this.records, mergeSchemaAnnotations(this.ast, annotations));
    },
    pick(...keys) {
      return Struct(struct_.pick(fields, ...keys));
    },
    omit(...keys) {
      return Struct(struct_.omit(fields, ...keys));
    }
  });
  TypeLiteralClass.fields = {
    ...fields
  };
  TypeLiteralClass.records = [...records];
  TypeLiteralClass.make = (props, options) => {
    const propsWithDefaults = lazilyMergeDefaults(fields, {
      ...props
    });
    return getDisableValidationMakeOption(options) ? propsWithDefaults : ParseResult.validateSync(TypeLiteralClass)(propsWithDefaults);
  };
  return TypeLiteralClass;
}`],
  ["makeRefineClass", "0b5f431e9ebfce46", `function makeRefineClass(from, filter, ast) {
  const RefineClass = defineMethods(make(ast), { annotations(annotations) {
    return makeRefineClass(this.from, this.filter, mergeSchemaAnnotations(this.ast, annotations));
  } });
  RefineClass[RefineSchemaId] = from;
  RefineClass.from = from;
  RefineClass.filter = filter;
  RefineClass.make = (a, options) => {
    return getDisableValidationMakeOption(options) ? a : ParseResult.validateSync(RefineClass)(a);
  };
  return RefineClass;
}`],
  ["makeTransformationClass", "3bdfe6374cbf048b", `function makeTransformationClass(from, to, ast) {
  const TransformationClass = defineMethods(make(ast), { annotations(annotations) {
    return makeTransformationClass(this.from, this.to, mergeSchemaAnnotations(this.ast, annotations));
  } });
  TransformationClass.from = from;
  TransformationClass.to = to;
  return TransformationClass;
}`]
]

/** Effect's Schema.js with its schemas made as plain functions (see above). */
export const plainSchemaConstructors = (source) => {
  let out = source
  for (const [name, hash, replacement] of FUNCTIONS) {
    const head = name === "make" ? "export function make(ast) {\n" : `function ${name}(`
    const start = out.indexOf(head)
    const end = out.indexOf("\n}\n", start)
    if (start < 0 || end < 0 || out.indexOf(head, start + 1) >= 0) throw new Error(`scripts/effect-schema-constructors.mjs: Effect's ${name} is not where it was; the plain schema constructors need revisiting`)
    const original = out.slice(start, end + 2)
    if (sha(original) !== hash) throw new Error(`scripts/effect-schema-constructors.mjs: Effect's ${name} changed (${sha(original)}); the plain schema constructors need revisiting`)
    out = out.slice(0, start) + replacement + out.slice(end + 2)
  }
  return out
}
