// The helpers the generated models read and write their members with: explicit code per member, no reflection.
using System;
using System.Collections.Generic;

namespace GamePlatform.Client
{
    public static class JsonCodec
    {
        /// <summary>The object a model reads from; null for JSON null.</summary>
        public static JsonValue ObjectOf(JsonValue json, string model)
        {
            if (json == null || json.IsNull) return null;
            if (json.Kind != JsonKind.Object) throw new JsonException(model + ": expected an object, found " + json.Kind.ToString().ToLowerInvariant());
            return json;
        }

        /// <summary>A member the schema requires: missing is an error naming the model and the member.</summary>
        public static T Required<T>(JsonValue obj, string name, string model, Func<JsonValue, T> read)
        {
            var value = obj.Get(name);
            if (value == null) throw new JsonException(model + "." + name + ": missing");
            return Read(value, name, model, read);
        }

        /// <summary>A member the schema does not require: default (null) when missing or null.</summary>
        public static T Optional<T>(JsonValue obj, string name, string model, Func<JsonValue, T> read)
        {
            var value = obj.Get(name);
            if (value == null || value.IsNull) return default(T);
            return Read(value, name, model, read);
        }

        private static T Read<T>(JsonValue value, string name, string model, Func<JsonValue, T> read)
        {
            try
            {
                return read(value);
            }
            catch (JsonException e)
            {
                throw new JsonException(model + "." + name + ": " + e.Message);
            }
        }

        /// <summary>An integer sent as a JSON number or as its decimal text (an amount in base units), as a decimal.</summary>
        public static decimal IntegerOrText(JsonValue json)
        {
            if (json.Kind == JsonKind.Number) return json.AsDecimal();
            decimal value;
            var text = json.AsString();
            if (text == null || !decimal.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out value))
                throw new JsonException("expected an integer or its decimal text, found " + Json.Write(json));
            return value;
        }

        /// <summary>A whole number past long's range (a u64 amount), written without a fraction.</summary>
        public static JsonValue Integer(decimal value)
        {
            if (decimal.Truncate(value) != value) throw new JsonException("not a whole number: " + value.ToString(System.Globalization.CultureInfo.InvariantCulture));
            return JsonValue.NumberFromText(value.ToString("0", System.Globalization.CultureInfo.InvariantCulture));
        }

        public static JsonValue Integer(decimal? value) { return value.HasValue ? Integer(value.Value) : JsonValue.Null; }

        public static List<T> ReadList<T>(JsonValue json, Func<JsonValue, T> read)
        {
            if (json.IsNull) return null;
            var list = new List<T>(json.Count);
            foreach (var item in json.Items) list.Add(read(item));
            return list;
        }

        public static Dictionary<string, T> ReadMap<T>(JsonValue json, Func<JsonValue, T> read)
        {
            if (json.IsNull) return null;
            var map = new Dictionary<string, T>(StringComparer.Ordinal);
            foreach (var member in json.Members) map[member.Key] = read(member.Value);
            return map;
        }

        /// <summary>The members of an object other than the ones a model declares (the schema leaves them open).</summary>
        public static Dictionary<string, JsonValue> ReadOthers(JsonValue obj, params string[] declared)
        {
            var others = new Dictionary<string, JsonValue>(StringComparer.Ordinal);
            foreach (var member in obj.Members)
                if (Array.IndexOf(declared, member.Key) < 0) others[member.Key] = member.Value;
            return others;
        }

        public static JsonValue WriteList<T>(List<T> list, Func<T, JsonValue> write)
        {
            if (list == null) return JsonValue.Null;
            var array = JsonValue.NewArray();
            foreach (var item in list) array.Add(write(item));
            return array;
        }

        public static JsonValue WriteMap<T>(Dictionary<string, T> map, Func<T, JsonValue> write)
        {
            if (map == null) return JsonValue.Null;
            var obj = JsonValue.NewObject();
            foreach (var member in map) obj.Set(member.Key, write(member.Value));
            return obj;
        }

        public static void WriteOthers(JsonValue obj, Dictionary<string, JsonValue> others)
        {
            if (others == null) return;
            foreach (var member in others) obj.Set(member.Key, member.Value);
        }
    }
}
