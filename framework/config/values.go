package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/units"
)

// Values in this package are plain Go data: string, int64, float64, bool,
// []any and map[string]any. Sizes and durations are int64 (bytes,
// nanoseconds).

func elemField(f *api.Field) *api.Field {
	t := map[api.Field_Type]api.Field_Type{
		api.Field_TYPE_STRING_LIST: api.Field_TYPE_STRING,
		api.Field_TYPE_INT_LIST:    api.Field_TYPE_INT,
		api.Field_TYPE_FLOAT_LIST:  api.Field_TYPE_FLOAT,
	}[f.Type]
	return &api.Field{Name: f.Name, Type: t, Enum: f.Enum, HasMin: f.HasMin, Min: f.Min, HasMax: f.HasMax, Max: f.Max}
}

// fromCty converts an HCL (or YAML, via yamlToCty) value to the Go value the
// field's type calls for. Conversions follow HCL: a string holding a number
// is a number, a number is a string.
func fromCty(f *api.Field, v cty.Value) (any, error) {
	if v.IsNull() {
		return nil, errors.New("a value is required, not null")
	}
	if !v.IsWhollyKnown() {
		return nil, errors.New("the value is not known")
	}
	switch f.Type {
	case api.Field_TYPE_STRING:
		if t := v.Type(); t == cty.String || t == cty.Number || t == cty.Bool {
			s, err := convert.Convert(v, cty.String)
			if err == nil {
				return s.AsString(), nil
			}
		}
		return nil, errors.New("a string is required")
	case api.Field_TYPE_INT:
		n, err := ctyNumber(v)
		if err != nil {
			return nil, err
		}
		return wholeNumber(n)
	case api.Field_TYPE_FLOAT:
		n, err := ctyNumber(v)
		if err != nil {
			return nil, err
		}
		x, _ := n.Float64()
		return x, nil
	case api.Field_TYPE_BOOL:
		if t := v.Type(); t == cty.Bool || t == cty.String {
			if b, err := convert.Convert(v, cty.Bool); err == nil {
				return b.True(), nil
			}
		}
		return nil, errors.New("a bool is required")
	case api.Field_TYPE_STRING_LIST, api.Field_TYPE_INT_LIST, api.Field_TYPE_FLOAT_LIST:
		t := v.Type()
		if !t.IsListType() && !t.IsTupleType() && !t.IsSetType() {
			return nil, errors.New("a list is required")
		}
		ef := elemField(f)
		out := []any{}
		for i, ev := range v.AsValueSlice() {
			x, err := fromCty(ef, ev)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out = append(out, x)
		}
		return out, nil
	case api.Field_TYPE_SIZE:
		switch v.Type() {
		case cty.String:
			return units.ParseSize(v.AsString())
		case cty.Number:
			n, err := wholeNumber(v.AsBigFloat())
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, errors.New("a size cannot be negative")
			}
			return n, nil
		}
		return nil, errors.New(`a size is required: a number of bytes or a string such as "4KiB"`)
	case api.Field_TYPE_DURATION:
		switch v.Type() {
		case cty.String:
			return parseDuration(v.AsString())
		case cty.Number:
			return wholeNumber(v.AsBigFloat())
		}
		return nil, errors.New(`a duration is required: a string such as "200ms" or a number of nanoseconds`)
	case api.Field_TYPE_BLOCK:
		return nil, errors.New("a block is required")
	}
	return nil, fmt.Errorf("fields of type %s are not supported", f.Type)
}

func ctyNumber(v cty.Value) (*big.Float, error) {
	if t := v.Type(); t == cty.Number || t == cty.String {
		if n, err := convert.Convert(v, cty.Number); err == nil {
			return n.AsBigFloat(), nil
		}
	}
	return nil, errors.New("a number is required")
}

func wholeNumber(n *big.Float) (int64, error) {
	if !n.IsInt() {
		return 0, errors.New("a whole number is required")
	}
	i, acc := n.Int64()
	if acc != big.Exact {
		return 0, errors.New("the number is too large")
	}
	return i, nil
}

func parseDuration(s string) (int64, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf(`invalid duration %q: write it like "200ms", "1.5s" or "2m"`, s)
	}
	return int64(d), nil
}

// parseText converts the text of an override to the field's value with
// sdk.ParseValue, with messages in the style of fromCty.
func parseText(f *api.Field, s string) (any, error) {
	v, err := sdk.ParseValue(f, s)
	if err == nil {
		return v, nil
	}
	switch f.Type {
	case api.Field_TYPE_INT, api.Field_TYPE_INT_LIST:
		return nil, fmt.Errorf("a whole number is required, not %q", s)
	case api.Field_TYPE_FLOAT, api.Field_TYPE_FLOAT_LIST:
		return nil, fmt.Errorf("a number is required, not %q", s)
	case api.Field_TYPE_BOOL:
		return nil, fmt.Errorf("a bool (true or false) is required, not %q", s)
	case api.Field_TYPE_DURATION:
		return parseDuration(s)
	}
	return nil, err
}

// check applies the field's enum and bounds to a converted value.
func check(f *api.Field, v any) error {
	if l, ok := v.([]any); ok {
		for _, x := range l {
			if err := checkScalar(f, x); err != nil {
				return err
			}
		}
		return nil
	}
	return checkScalar(f, v)
}

func checkScalar(f *api.Field, v any) error {
	if len(f.Enum) > 0 && !contains(f.Enum, textOf(v)) {
		shown := textOf(v)
		hint := ""
		if s, ok := v.(string); ok {
			shown = strconv.Quote(s)
			hint = didYouMean(s, f.Enum)
		}
		return fmt.Errorf("value %s is not one of %s.%s", shown, strings.Join(f.Enum, ","), hint)
	}
	var n float64
	switch x := v.(type) {
	case int64:
		n = float64(x)
	case float64:
		n = x
	default:
		return nil
	}
	if f.HasMin && n < f.Min {
		return fmt.Errorf("value %s is less than the minimum %s", textOf(v), textOf(f.Min))
	}
	if f.HasMax && n > f.Max {
		return fmt.Errorf("value %s is greater than the maximum %s", textOf(v), textOf(f.Max))
	}
	return nil
}

// zero is the value of an absent field without a default.
func zero(f *api.Field) any {
	switch f.Type {
	case api.Field_TYPE_STRING:
		return ""
	case api.Field_TYPE_INT, api.Field_TYPE_SIZE, api.Field_TYPE_DURATION:
		return int64(0)
	case api.Field_TYPE_FLOAT:
		return float64(0)
	case api.Field_TYPE_BOOL:
		return false
	case api.Field_TYPE_STRING_LIST, api.Field_TYPE_INT_LIST, api.Field_TYPE_FLOAT_LIST:
		return []any{}
	}
	return nil
}

// defaultOf decodes Field.DefaultJson.
func defaultOf(f *api.Field) (any, error) {
	v, err := decodeJSON([]byte(f.DefaultJson))
	if err != nil {
		return nil, err
	}
	return fromCty(f, plainToCty(v))
}

// decodeJSON decodes JSON into plain data, numbers as int64 when whole and
// float64 otherwise.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return plainNumbers(v), nil
}

func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plainNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainNumbers(x[k])
		}
	}
	return v
}

// plainToCty converts plain Go data to a cty value.
func plainToCty(v any) cty.Value {
	switch x := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType)
	case string:
		return cty.StringVal(x)
	case bool:
		return cty.BoolVal(x)
	case int:
		return cty.NumberIntVal(int64(x))
	case int64:
		return cty.NumberIntVal(x)
	case uint64:
		return cty.NumberUIntVal(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return cty.StringVal(textOf(x))
		}
		return cty.NumberFloatVal(x)
	case json.Number:
		if n, err := cty.ParseNumberVal(x.String()); err == nil {
			return n
		}
		return cty.StringVal(x.String())
	case []any:
		if len(x) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(x))
		for i := range x {
			vals[i] = plainToCty(x[i])
		}
		return cty.TupleVal(vals)
	case map[string]any:
		if len(x) == 0 {
			return cty.EmptyObjectVal
		}
		vals := map[string]cty.Value{}
		for k := range x {
			vals[k] = plainToCty(x[k])
		}
		return cty.ObjectVal(vals)
	}
	return cty.StringVal(fmt.Sprint(v))
}

// ctyToPlain converts a cty value to plain Go data; null becomes nil.
func ctyToPlain(v cty.Value) any {
	if v.IsNull() || !v.IsWhollyKnown() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString()
	case t == cty.Bool:
		return v.True()
	case t == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			if i, acc := bf.Int64(); acc == big.Exact {
				return i
			}
		}
		f, _ := bf.Float64()
		return f
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := []any{}
		for _, ev := range v.AsValueSlice() {
			out = append(out, ctyToPlain(ev))
		}
		return out
	case t.IsMapType() || t.IsObjectType():
		out := map[string]any{}
		for k, ev := range v.AsValueMap() {
			out[k] = ctyToPlain(ev)
		}
		return out
	}
	return nil
}

// isScalar reports whether v is a matrix-able value.
func isScalar(v any) bool {
	switch v.(type) {
	case string, int64, float64, bool:
		return true
	}
	return false
}

// guessScalar types a matrix value written as text in an override.
func guessScalar(s string) any {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return f
	}
	if s == "true" || s == "false" {
		return s == "true"
	}
	return s
}
