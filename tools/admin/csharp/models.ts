import { docComment, literal, pascal, unique } from './names.js';

/** A JSON Schema as the served documents give it (inline everywhere: the documents have no components.schemas). */
export type Schema = { [key: string]: unknown };

/** A C# type for a schema, with the code that reads it from a JsonValue and writes it to one. */
export interface CsType {
  /** The C# type, without the `?` a value type gets when it may be absent or null. */
  cs: string;
  /** long, decimal, double, bool: declared `T?` when the member may be absent or null. */
  valueType: boolean;
  /** The schema allows JSON null. */
  nullable: boolean;
  /** An expression reading the JsonValue named `v` (JSON null only when nullable); `depth` names nested lambdas' variables. */
  read(v: string, depth: number): string;
  /** An expression writing the C# value `x` as a JsonValue. */
  write(x: string, depth: number): string;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

const jsonValue: CsType = { cs: 'JsonValue', valueType: false, nullable: true, read: (v) => v, write: (x) => `JsonValue.From(${x})` };
const string: CsType = { cs: 'string', valueType: false, nullable: false, read: (v) => `${v}.AsString()`, write: (x) => `JsonValue.From(${x})` };

function scalar(cs: string, reader: string): CsType {
  return { cs, valueType: true, nullable: false, read: (v) => `${v}.${reader}()`, write: (x) => `JsonValue.From(${x})` };
}

/** The member's declared type: a value type that may be absent or null is `T?`. */
export function declared(type: CsType, required: boolean): string {
  return type.valueType && (type.nullable || !required) ? `${type.cs}?` : type.cs;
}

/** The read expression for a declared `T?` value type: null stays null. */
function readDeclared(type: CsType, required: boolean, v: string, depth: number): string {
  const cs = declared(type, required);
  return cs.endsWith('?') ? `${v}.IsNull ? (${cs})null : ${type.read(v, depth)}` : type.read(v, depth);
}

const schemaType = (s: Schema) => s.type as string | string[] | undefined;
const variants = (s: Schema) => (s.anyOf ?? s.oneOf) as Schema[] | undefined;
const isNull = (s: Schema) => schemaType(s) === 'null';

/** An integer's C# type: long when its bounds (or its const) lie within long's range, else decimal (u64 amounts). */
function integerType(s: Schema): CsType {
  if (typeof s.const === 'number') return scalar('long', 'AsLong');
  const bound = (key: string) => (typeof s[key] === 'number' ? BigInt(s[key] as number) : undefined);
  const low = bound('minimum') ?? bound('exclusiveMinimum');
  const high = bound('maximum') ?? bound('exclusiveMaximum');
  return high !== undefined && high <= LONG_MAX && (low === undefined || low >= LONG_MIN) ? scalar('long', 'AsLong') : bigInteger;
}

/** `{anyOf: [integer, decimal digits as a string]}`: an amount in base units written either way; read as decimal, written as a number. */
function isIntegerOrText(options: Schema[]): boolean {
  if (options.length !== 2) return false;
  const integer = options.find((o) => o.type === 'integer');
  const text = options.find((o) => o.type === 'string');
  if (!integer || !text || typeof text.pattern !== 'string') return false;
  const pattern = new RegExp(text.pattern);
  return pattern.test('18446744073709551615') && !pattern.test('1.5') && !pattern.test('x');
}

// Integers past long's range are decimals, written without a fraction (JsonCodec.Integer refuses one).
const bigInteger: CsType = { cs: 'decimal', valueType: true, nullable: false, read: (v) => `${v}.AsDecimal()`, write: (x) => `JsonCodec.Integer(${x})` };
const integerOrText: CsType = { ...bigInteger, read: (v) => `JsonCodec.IntegerOrText(${v})` };

/**
 * The models of one document: each object schema with properties becomes a class named from where it is
 * (`RechargeOrderRequest`, `GameRankResponseData`, `…Item` for an array's items), in the order first met.
 */
export class Models {
  private readonly taken = new Set<string>();
  private readonly classes: string[] = [];

  constructor(reserved: Iterable<string>) {
    for (const name of reserved) this.taken.add(name);
  }

  /** The C# source of every class made so far. */
  source(): string {
    return this.classes.join('\n\n');
  }

  typeOf(schema: Schema, hint: string): CsType {
    const options = variants(schema);
    const type = schemaType(schema);
    if (options || Array.isArray(type)) {
      const all = options ?? (type as string[]).map((t) => ({ ...schema, type: t }));
      const nonNull = all.filter((o) => !isNull(o));
      const nullable = nonNull.length < all.length;
      let inner: CsType;
      if (nonNull.length === 1) inner = this.typeOf(nonNull[0]!, hint);
      else if (isIntegerOrText(nonNull)) inner = integerOrText;
      else if (nonNull.length > 0 && nonNull.every((o) => o.type === nonNull[0]!.type && ['string', 'number', 'boolean'].includes(o.type as string)))
        inner = this.typeOf({ type: nonNull[0]!.type }, hint);
      // Variants of different shapes: the JSON value itself (README "What maps to a JsonValue").
      else return jsonValue;
      return { ...inner, nullable: inner.nullable || nullable };
    }
    switch (type) {
      case 'string':
        return string;
      case 'integer':
        return integerType(schema);
      case 'number':
        return scalar('double', 'AsDouble');
      case 'boolean':
        return scalar('bool', 'AsBool');
      case 'array':
        return this.listOf(this.typeOf((schema.items ?? {}) as Schema, `${hint}Item`));
      case 'object':
        if (schema.properties) return this.model(schema, hint);
        return this.mapOf(
          schema.additionalProperties && typeof schema.additionalProperties === 'object'
            ? this.typeOf(schema.additionalProperties as Schema, `${hint}Value`)
            : jsonValue,
        );
      default:
        // `{}`, `{type: 'null'}`: any JSON value.
        return jsonValue;
    }
  }

  private listOf(item: CsType): CsType {
    const element = declared(item, true);
    return {
      cs: `List<${element}>`,
      valueType: false,
      nullable: false,
      read: (v, d) => `JsonCodec.ReadList(${v}, v${d + 1} => ${readDeclared(item, true, `v${d + 1}`, d + 1)})`,
      write: (x, d) => `JsonCodec.WriteList(${x}, x${d + 1} => ${item.write(`x${d + 1}`, d + 1)})`,
    };
  }

  private mapOf(value: CsType): CsType {
    const element = declared(value, true);
    return {
      cs: `Dictionary<string, ${element}>`,
      valueType: false,
      nullable: false,
      read: (v, d) => `JsonCodec.ReadMap(${v}, v${d + 1} => ${readDeclared(value, true, `v${d + 1}`, d + 1)})`,
      write: (x, d) => `JsonCodec.WriteMap(${x}, x${d + 1} => ${value.write(`x${d + 1}`, d + 1)})`,
    };
  }

  private model(schema: Schema, hint: string): CsType {
    const name = unique(hint, this.taken);
    const properties = schema.properties as Record<string, Schema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    // The members other than the declared ones are kept when the schema leaves the object open.
    const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
    const memberNames = new Set([name, 'FromJson', 'ToJson', 'Others']);
    const members = Object.entries(properties).map(([json, property]) => {
      const prop = unique(pascal(json) === name ? `${pascal(json)}Value` : pascal(json), memberNames);
      return { json, prop, required: required.has(json), property, type: this.typeOf(property, `${name}${pascal(json)}`) };
    });
    const lines: string[] = [];
    if (typeof schema.description === 'string') lines.push(...docComment('    ', [schema.description]));
    lines.push(`    public sealed partial class ${name}`, '    {');
    for (const m of members) {
      const notes = [`JSON \`${m.json}\`${m.required ? ', required' : ''}.`];
      if (typeof m.property.description === 'string') notes.push(m.property.description);
      lines.push(...docComment('        ', notes), `        public ${declared(m.type, m.required)} ${m.prop} { get; set; }`, '');
    }
    if (open)
      lines.push(
        '        /// <summary>Members the schema does not declare (it leaves the object open).</summary>',
        '        public Dictionary<string, JsonValue> Others { get; set; }',
        '',
      );
    lines.push(
      `        public static ${name} FromJson(JsonValue json)`,
      '        {',
      `            var o = JsonCodec.ObjectOf(json, ${literal(name)});`,
      '            if (o == null) return null;',
      `            var m = new ${name}();`,
    );
    for (const m of members) {
      const how = m.required ? 'Required' : 'Optional';
      lines.push(`            m.${m.prop} = JsonCodec.${how}(o, ${literal(m.json)}, ${literal(name)}, v0 => ${readDeclared(m.type, m.required, 'v0', 0)});`);
    }
    if (open) lines.push(`            m.Others = JsonCodec.ReadOthers(o${members.map((m) => `, ${literal(m.json)}`).join('')});`);
    lines.push('            return m;', '        }', '', '        public JsonValue ToJson()', '        {', '            var o = JsonValue.NewObject();');
    for (const m of members) {
      const set = `o.Set(${literal(m.json)}, ${m.type.write(m.prop, 0)});`;
      // An optional member left null is left out; a required one is written, null included.
      lines.push(m.required ? `            ${set}` : `            if (${m.prop} != null) ${set}`);
    }
    if (open) lines.push('            JsonCodec.WriteOthers(o, Others);');
    lines.push('            return o;', '        }', '    }');
    this.classes.push(lines.join('\n'));
    return {
      cs: name,
      valueType: false,
      nullable: false,
      read: (v) => `${name}.FromJson(${v})`,
      write: (x) => `(${x} == null ? JsonValue.Null : ${x}.ToJson())`,
    };
  }
}
