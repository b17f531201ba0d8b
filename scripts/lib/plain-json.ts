// Any value as JSON, for the QA path exporter and the gate's traversal keys. Events, actor results and
// inputs hold what JSON cannot carry (an actor that resolves with undefined, a file's Blob, a Date, a Map):
// JSON.stringify drops or flattens those, so two different payloads would print alike and a path would
// not say what to send. Each such value becomes an object tagged with "$type" (README, "QA"); plain
// objects, arrays, strings, finite numbers, booleans and null are left as JSON has them.

/** A JSON value: what JSON.parse can return. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TAG = '$type';

function tagged(type: string, fields: Record<string, Json> = {}): Json {
  return { [TAG]: type, ...fields };
}

function className(value: object): string | null {
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : null;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `value` as JSON, every value JSON cannot carry tagged with "$type" (see fromPlainJson). */
export function toPlainJson(value: unknown): Json {
  return encode(value, []);
}

function encode(value: unknown, ancestors: object[]): Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return tagged('number', { value: Object.is(value, -0) ? '-0' : String(value) });
    case 'undefined':
      return tagged('undefined');
    case 'bigint':
      return tagged('bigint', { value: value.toString() });
    case 'symbol':
      return tagged('symbol', { description: value.description ?? null });
    case 'function':
      return tagged('function', { name: value.name === '' ? null : value.name });
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) return tagged('circular');
  const inner = [...ancestors, object];
  const each = (item: unknown) => encode(item, inner);
  if (Array.isArray(object)) return Array.from(object, each);
  if (isPlainObject(object)) {
    const entries = encodeEntries(object, inner);
    return Object.hasOwn(entries, TAG) ? tagged('object', { value: entries }) : entries;
  }
  if (object instanceof Date) {
    return tagged('Date', { value: Number.isNaN(object.getTime()) ? null : object.toISOString() });
  }
  if (object instanceof RegExp) return tagged('RegExp', { source: object.source, flags: object.flags });
  if (object instanceof Map) {
    return tagged('Map', { entries: [...object].map(([key, item]) => [each(key), each(item)]) });
  }
  if (object instanceof Set) return tagged('Set', { values: [...object].map(each) });
  // Only the file's description: its bytes can only be read asynchronously.
  if (typeof File !== 'undefined' && object instanceof File) {
    return tagged('File', {
      name: object.name,
      size: object.size,
      type: object.type,
      lastModified: object.lastModified,
    });
  }
  if (typeof Blob !== 'undefined' && object instanceof Blob) {
    return tagged('Blob', { size: object.size, type: object.type });
  }
  if (object instanceof Error) {
    return tagged('Error', { name: object.name, message: object.message });
  }
  if (object instanceof ArrayBuffer) return tagged('ArrayBuffer', { bytes: [...new Uint8Array(object)] });
  if (ArrayBuffer.isView(object)) {
    const values =
      object instanceof DataView
        ? [...new Uint8Array(object.buffer, object.byteOffset, object.byteLength)]
        : Array.from(object as unknown as ArrayLike<number | bigint>, each);
    return tagged(className(object) ?? 'ArrayBufferView', { values });
  }
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  return tagged('instance', {
    class: className(object),
    value: typeof toJSON === 'function' ? each(toJSON.call(object)) : encodeEntries(object, inner),
  });
}

function encodeEntries(object: object, ancestors: object[]): { [key: string]: Json } {
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, encode(item, ancestors)]));
}

const TYPED_ARRAYS: Record<string, new (values: never[]) => unknown> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

/**
 * The value toPlainJson described, where JSON's reader can have it back: undefined, special numbers,
 * bigint, symbols (a new one, with the description), Date, RegExp, Map, Set, Error, ArrayBuffer and
 * typed arrays. A function, Blob, File, class instance or circular reference stays its tagged description.
 */
export function fromPlainJson(json: Json): unknown {
  if (Array.isArray(json)) return json.map(fromPlainJson);
  if (json === null || typeof json !== 'object') return json;
  const type = json[TAG];
  if (typeof type !== 'string') {
    return Object.fromEntries(Object.entries(json).map(([key, item]) => [key, fromPlainJson(item)]));
  }
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(json.value as { [key: string]: Json }).map(([key, item]) => [
          key,
          fromPlainJson(item),
        ]),
      );
    case 'undefined':
      return undefined;
    case 'number':
      return json.value === '-0' ? -0 : Number(json.value);
    case 'bigint':
      return BigInt(json.value as string);
    case 'symbol':
      return Symbol((json.description as string | null) ?? undefined);
    case 'Date':
      return new Date(json.value === null ? Number.NaN : (json.value as string));
    case 'RegExp':
      return new RegExp(json.source as string, json.flags as string);
    case 'Map':
      return new Map(
        (json.entries as [Json, Json][]).map(([key, item]) => [fromPlainJson(key), fromPlainJson(item)]),
      );
    case 'Set':
      return new Set((json.values as Json[]).map(fromPlainJson));
    case 'Error': {
      // TypeError and the other built-in errors come back as themselves; any other name is an Error's.
      const { name, message } = json as { name: string; message: string };
      const builtIn = (globalThis as Record<string, unknown>)[name];
      const isBuiltIn =
        builtIn === Error || (typeof builtIn === 'function' && builtIn.prototype instanceof Error);
      return isBuiltIn
        ? new (builtIn as ErrorConstructor)(message)
        : Object.assign(new Error(message), { name });
    }
    case 'ArrayBuffer':
      return new Uint8Array(json.bytes as number[]).buffer;
    case 'DataView':
      return new DataView(new Uint8Array(json.values as number[]).buffer);
  }
  const TypedArray = TYPED_ARRAYS[type];
  if (TypedArray) return new TypedArray((json.values as Json[]).map(fromPlainJson) as never[]);
  return json;
}

/**
 * A compact, readable rendering for people (the exporter's text): JSON for what JSON carries, and
 * `undefined`, `12n`, `Date(2030-01-01T00:00:00.000Z)`, `Blob(9 bytes, application/pdf)`, `Map{"a" => 1}`
 * and the like for the rest, so that no two different values read alike.
 */
export function formatValue(value: unknown): string {
  return format(toPlainJson(value));
}

function format(json: Json): string {
  if (Array.isArray(json)) return `[${json.map(format).join(',')}]`;
  if (json === null || typeof json !== 'object') return JSON.stringify(json);
  const type = json[TAG];
  const entries = (object: { [key: string]: Json }) =>
    `{${Object.entries(object)
      .map(([key, item]) => `${JSON.stringify(key)}:${format(item)}`)
      .join(',')}}`;
  if (typeof type !== 'string') return entries(json);
  const text = (field: string) => String(json[field]);
  switch (type) {
    case 'object':
      return entries(json.value as { [key: string]: Json });
    case 'undefined':
      return 'undefined';
    case 'number':
      return text('value');
    case 'bigint':
      return `${text('value')}n`;
    case 'symbol':
      return `Symbol(${json.description === null ? '' : text('description')})`;
    case 'function':
      return `function ${json.name === null ? '(anonymous)' : text('name')}`;
    case 'circular':
      return '(circular)';
    case 'Date':
      return `Date(${json.value === null ? 'Invalid Date' : text('value')})`;
    case 'RegExp':
      return `/${text('source')}/${text('flags')}`;
    case 'Map':
      return `Map{${(json.entries as [Json, Json][]).map(([key, item]) => `${format(key)} => ${format(item)}`).join(',')}}`;
    case 'Set':
      return `Set${format(json.values as Json[])}`;
    case 'Blob':
      return `Blob(${text('size')} bytes${json.type === '' ? '' : `, ${text('type')}`})`;
    case 'File':
      return `File(${JSON.stringify(json.name)}, ${text('size')} bytes${json.type === '' ? '' : `, ${text('type')}`})`;
    case 'Error':
      return `${text('name')}(${JSON.stringify(json.message)})`;
    case 'ArrayBuffer':
      return `ArrayBuffer${format(json.bytes as Json[])}`;
    case 'instance': {
      const name = json.class === null ? 'Object' : text('class');
      const inner = json.value as Json;
      const isEntries = inner !== null && typeof inner === 'object' && !Array.isArray(inner);
      return isEntries ? `${name}${format(inner)}` : `${name}(${format(inner)})`;
    }
  }
  return `${type}${format(json.values as Json[])}`;
}
