// A small JSON value tree, reader and writer (RFC 8259), written out by hand so that nothing depends on
// reflection: IL2CPP strips the members a reflection-based serializer would look up, and the generated models
// read and write this tree with explicit code instead.
//
// Numbers keep their text: an amount in base units (up to 18446744073709551615) or a 64-bit id passes through
// unchanged, and is turned into long, decimal or double only when the model asks for that type.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace GamePlatform.Client
{
    public enum JsonKind { Null, Bool, Number, String, Array, Object }

    /// <summary>Thrown for text that is not JSON, or JSON that is not the shape a model expects.</summary>
    public sealed class JsonException : Exception
    {
        public JsonException(string message) : base(message) { }
    }

    /// <summary>One JSON value. Objects keep their members' order; a repeated name keeps its last value.</summary>
    public sealed class JsonValue
    {
        public static readonly JsonValue Null = new JsonValue(JsonKind.Null, null);
        public static readonly JsonValue True = new JsonValue(JsonKind.Bool, "true");
        public static readonly JsonValue False = new JsonValue(JsonKind.Bool, "false");

        public JsonKind Kind { get; private set; }
        // The text of a number or a string; null for the other kinds.
        private readonly string text;
        private readonly List<JsonValue> items;
        private readonly List<KeyValuePair<string, JsonValue>> members;
        private readonly Dictionary<string, int> index;

        private JsonValue(JsonKind kind, string text)
        {
            Kind = kind;
            this.text = text;
            if (kind == JsonKind.Array) items = new List<JsonValue>();
            if (kind == JsonKind.Object)
            {
                members = new List<KeyValuePair<string, JsonValue>>();
                index = new Dictionary<string, int>(StringComparer.Ordinal);
            }
        }

        public static JsonValue NewObject() { return new JsonValue(JsonKind.Object, null); }
        public static JsonValue NewArray() { return new JsonValue(JsonKind.Array, null); }
        public static JsonValue From(bool value) { return value ? True : False; }
        public static JsonValue From(bool? value) { return value.HasValue ? From(value.Value) : Null; }
        public static JsonValue From(string value) { return value == null ? Null : new JsonValue(JsonKind.String, value); }
        public static JsonValue From(long value) { return new JsonValue(JsonKind.Number, value.ToString(CultureInfo.InvariantCulture)); }
        public static JsonValue From(long? value) { return value.HasValue ? From(value.Value) : Null; }
        public static JsonValue From(decimal value) { return new JsonValue(JsonKind.Number, value.ToString(CultureInfo.InvariantCulture)); }
        public static JsonValue From(decimal? value) { return value.HasValue ? From(value.Value) : Null; }
        public static JsonValue From(double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value)) throw new JsonException("JSON has no NaN or infinity");
            return new JsonValue(JsonKind.Number, value.ToString("R", CultureInfo.InvariantCulture));
        }
        public static JsonValue From(double? value) { return value.HasValue ? From(value.Value) : Null; }
        public static JsonValue From(JsonValue value) { return value ?? Null; }

        /// <summary>A number given as its JSON text (for example an amount in base units past long's range).</summary>
        public static JsonValue NumberFromText(string text)
        {
            var parsed = Json.Parse(text);
            if (parsed.Kind != JsonKind.Number) throw new JsonException("not a JSON number: " + text);
            return parsed;
        }

        internal static JsonValue RawNumber(string text) { return new JsonValue(JsonKind.Number, text); }

        public bool IsNull { get { return Kind == JsonKind.Null; } }

        public int Count
        {
            get
            {
                if (Kind == JsonKind.Array) return items.Count;
                if (Kind == JsonKind.Object) return members.Count;
                throw Unexpected("an array or an object");
            }
        }

        /// <summary>The array's items.</summary>
        public IList<JsonValue> Items { get { Expect(JsonKind.Array); return items.AsReadOnly(); } }

        /// <summary>The object's members, in order.</summary>
        public IList<KeyValuePair<string, JsonValue>> Members { get { Expect(JsonKind.Object); return members.AsReadOnly(); } }

        public JsonValue this[int i] { get { Expect(JsonKind.Array); return items[i]; } }

        /// <summary>A member of an object, or null (not JsonValue.Null) when the object has none by that name.</summary>
        public JsonValue Get(string name)
        {
            Expect(JsonKind.Object);
            int at;
            return index.TryGetValue(name, out at) ? members[at].Value : null;
        }

        public JsonValue this[string name] { get { return Get(name); } }

        public JsonValue Set(string name, JsonValue value)
        {
            Expect(JsonKind.Object);
            var member = new KeyValuePair<string, JsonValue>(name, value ?? Null);
            int at;
            if (index.TryGetValue(name, out at)) members[at] = member;
            else
            {
                index[name] = members.Count;
                members.Add(member);
            }
            return this;
        }

        public JsonValue Add(JsonValue value)
        {
            Expect(JsonKind.Array);
            items.Add(value ?? Null);
            return this;
        }

        public bool AsBool()
        {
            Expect(JsonKind.Bool);
            return this == True || text == "true";
        }

        /// <summary>The string; null for JSON null.</summary>
        public string AsString()
        {
            if (Kind == JsonKind.Null) return null;
            Expect(JsonKind.String);
            return text;
        }

        /// <summary>An integer that fits a long, written without fraction or exponent.</summary>
        public long AsLong()
        {
            Expect(JsonKind.Number);
            long value;
            if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value))
                throw new JsonException("not an integer of 64 bits: " + text);
            return value;
        }

        /// <summary>A number as a decimal: exact for integers up to 28 digits, such as a u64 amount.</summary>
        public decimal AsDecimal()
        {
            Expect(JsonKind.Number);
            decimal value;
            if (!decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out value))
                throw new JsonException("not a decimal number: " + text);
            return value;
        }

        public double AsDouble()
        {
            Expect(JsonKind.Number);
            return double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        /// <summary>A number's JSON text, exactly as it was read.</summary>
        public string NumberText { get { Expect(JsonKind.Number); return text; } }

        public override string ToString() { return Json.Write(this); }

        internal string Text { get { return text; } }

        private void Expect(JsonKind kind)
        {
            if (Kind != kind) throw Unexpected(kind == JsonKind.Object ? "an object" : kind == JsonKind.Array ? "an array" : "a " + kind.ToString().ToLowerInvariant());
        }

        private JsonException Unexpected(string wanted)
        {
            return new JsonException("expected " + wanted + ", found " + (Kind == JsonKind.Null ? "null" : Kind.ToString().ToLowerInvariant()));
        }
    }

    /// <summary>Reads and writes JSON text.</summary>
    public static class Json
    {
        /// <summary>How deep arrays and objects may nest: the service refuses bodies past 64 levels, and recursion stays bounded.</summary>
        public const int MaxDepth = 512;

        public static JsonValue Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            var reader = new Reader(text);
            reader.SkipSpace();
            var value = reader.ReadValue(0);
            reader.SkipSpace();
            if (!reader.AtEnd) throw reader.Error("text after the JSON value");
            return value;
        }

        public static JsonValue Parse(byte[] utf8)
        {
            var text = new UTF8Encoding(false, true).GetString(utf8);
            // A leading byte order mark is ignored (RFC 8259 section 8.1 allows a parser to).
            if (text.Length > 0 && text[0] == '\uFEFF') text = text.Substring(1);
            return Parse(text);
        }

        /// <summary>Compact JSON text; strings escape only what RFC 8259 requires, plus U+2028 and U+2029.</summary>
        public static string Write(JsonValue value)
        {
            var sb = new StringBuilder();
            WriteTo(sb, value ?? JsonValue.Null);
            return sb.ToString();
        }

        private static void WriteTo(StringBuilder sb, JsonValue value)
        {
            switch (value.Kind)
            {
                case JsonKind.Null: sb.Append("null"); break;
                case JsonKind.Bool: sb.Append(value.AsBool() ? "true" : "false"); break;
                case JsonKind.Number: sb.Append(value.Text); break;
                case JsonKind.String: WriteString(sb, value.Text); break;
                case JsonKind.Array:
                    sb.Append('[');
                    for (int i = 0; i < value.Count; i++)
                    {
                        if (i > 0) sb.Append(',');
                        WriteTo(sb, value[i]);
                    }
                    sb.Append(']');
                    break;
                default:
                    sb.Append('{');
                    var first = true;
                    foreach (var member in value.Members)
                    {
                        if (!first) sb.Append(',');
                        first = false;
                        WriteString(sb, member.Key);
                        sb.Append(':');
                        WriteTo(sb, member.Value);
                    }
                    sb.Append('}');
                    break;
            }
        }

        private static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            for (var i = 0; i < s.Length; i++)
            {
                var c = s[i];
                // A surrogate without its pair cannot be encoded as UTF-8: it is written as its escape instead.
                if (char.IsSurrogate(c) && !(char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1])) && !(char.IsLowSurrogate(c) && i > 0 && char.IsHighSurrogate(s[i - 1])))
                {
                    sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    continue;
                }
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    case '\b': sb.Append("\\b"); break;
                    case '\f': sb.Append("\\f"); break;
                    default:
                        if (c < 0x20 || c == '\u2028' || c == '\u2029') sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        private sealed class Reader
        {
            private readonly string s;
            private int pos;

            public Reader(string s) { this.s = s; }

            public bool AtEnd { get { return pos >= s.Length; } }

            public JsonException Error(string what) { return new JsonException("invalid JSON at offset " + pos + ": " + what); }

            public void SkipSpace()
            {
                while (pos < s.Length && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) pos++;
            }

            public JsonValue ReadValue(int depth)
            {
                if (AtEnd) throw Error("unexpected end");
                var c = s[pos];
                switch (c)
                {
                    case '{': return ReadObject(depth + 1);
                    case '[': return ReadArray(depth + 1);
                    case '"': return JsonValue.From(ReadString());
                    case 't': Literal("true"); return JsonValue.True;
                    case 'f': Literal("false"); return JsonValue.False;
                    case 'n': Literal("null"); return JsonValue.Null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                        throw Error("unexpected character '" + c + "'");
                }
            }

            private void Literal(string word)
            {
                if (string.CompareOrdinal(s, pos, word, 0, word.Length) != 0) throw Error("expected " + word);
                pos += word.Length;
            }

            private JsonValue ReadObject(int depth)
            {
                if (depth > MaxDepth) throw Error("nested deeper than " + MaxDepth + " levels");
                pos++;
                var obj = JsonValue.NewObject();
                SkipSpace();
                if (!AtEnd && s[pos] == '}') { pos++; return obj; }
                for (;;)
                {
                    SkipSpace();
                    if (AtEnd || s[pos] != '"') throw Error("expected a member name");
                    var name = ReadString();
                    SkipSpace();
                    if (AtEnd || s[pos] != ':') throw Error("expected ':'");
                    pos++;
                    SkipSpace();
                    obj.Set(name, ReadValue(depth));
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end in an object");
                    if (s[pos] == ',') { pos++; continue; }
                    if (s[pos] == '}') { pos++; return obj; }
                    throw Error("expected ',' or '}'");
                }
            }

            private JsonValue ReadArray(int depth)
            {
                if (depth > MaxDepth) throw Error("nested deeper than " + MaxDepth + " levels");
                pos++;
                var array = JsonValue.NewArray();
                SkipSpace();
                if (!AtEnd && s[pos] == ']') { pos++; return array; }
                for (;;)
                {
                    SkipSpace();
                    array.Add(ReadValue(depth));
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end in an array");
                    if (s[pos] == ',') { pos++; continue; }
                    if (s[pos] == ']') { pos++; return array; }
                    throw Error("expected ',' or ']'");
                }
            }

            // The number grammar of RFC 8259 section 6; the text is kept as it is.
            private JsonValue ReadNumber()
            {
                var start = pos;
                if (s[pos] == '-') pos++;
                if (AtEnd) throw Error("a number without digits");
                if (s[pos] == '0') pos++;
                else if (s[pos] >= '1' && s[pos] <= '9') Digits();
                else throw Error("a number without digits");
                if (!AtEnd && s[pos] == '.')
                {
                    pos++;
                    if (AtEnd || s[pos] < '0' || s[pos] > '9') throw Error("a fraction without digits");
                    Digits();
                }
                if (!AtEnd && (s[pos] == 'e' || s[pos] == 'E'))
                {
                    pos++;
                    if (!AtEnd && (s[pos] == '+' || s[pos] == '-')) pos++;
                    if (AtEnd || s[pos] < '0' || s[pos] > '9') throw Error("an exponent without digits");
                    Digits();
                }
                return JsonValue.RawNumber(s.Substring(start, pos - start));
            }

            private void Digits()
            {
                while (pos < s.Length && s[pos] >= '0' && s[pos] <= '9') pos++;
            }

            private string ReadString()
            {
                pos++;
                var sb = new StringBuilder();
                for (;;)
                {
                    if (AtEnd) throw Error("unterminated string");
                    var c = s[pos++];
                    if (c == '"') return sb.ToString();
                    if (c < 0x20) throw Error("a control character in a string");
                    if (c != '\\') { sb.Append(c); continue; }
                    if (AtEnd) throw Error("unterminated escape");
                    var e = s[pos++];
                    switch (e)
                    {
                        case '"': sb.Append('"'); break;
                        case '\\': sb.Append('\\'); break;
                        case '/': sb.Append('/'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'u':
                            if (pos + 4 > s.Length) throw Error("a short \\u escape");
                            int code;
                            if (!int.TryParse(s.Substring(pos, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code)) throw Error("a bad \\u escape");
                            pos += 4;
                            // Surrogate pairs arrive as two escapes, each appended as the UTF-16 unit it is.
                            sb.Append((char)code);
                            break;
                        default: throw Error("an unknown escape \\" + e);
                    }
                }
            }
        }
    }
}
